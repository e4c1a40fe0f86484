import userEvent from '@testing-library/user-event';
import { renderApp, screen } from '@/testing/test-utils';
import { SearchForm } from './search-form';

describe('SearchForm', () => {
  it('requires something to search and stays on the page when empty', async () => {
    const user = userEvent.setup();
    renderApp(<SearchForm />);
    await user.click(screen.getByRole('button', { name: /search/i }));
    expect(await screen.findByText(/enter a number, e-mail, website/i)).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it('goes to /search/{searchString} with the trimmed, encoded input', async () => {
    const user = userEvent.setup();
    renderApp(<SearchForm />);
    await user.type(screen.getByRole('textbox'), '  +63 917 123 4567 ');
    await user.click(screen.getByRole('button', { name: /search/i }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/search/%2B63%20917%20123%204567');
  });
});
