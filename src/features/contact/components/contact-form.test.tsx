import userEvent from '@testing-library/user-event';
import { renderApp, screen } from '@/testing/test-utils';
import { ContactForm } from './contact-form';

describe('ContactForm', () => {
  it('requires a message and a valid e-mail before sending anything', async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    renderApp(<ContactForm onSuccess={onSuccess} />);
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Message is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required so we can answer you')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Message')).toHaveAttribute('aria-invalid', 'false');
  });
});
