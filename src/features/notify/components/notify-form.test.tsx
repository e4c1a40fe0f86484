import userEvent from '@testing-library/user-event';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { NotifyForm } from './notify-form';

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('NotifyForm', () => {
  it('requires assetName', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NotifyForm onSubmit={onSubmit} isPending={false} />);
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText('Enter at least one e-mail, mobile number, website or crypto wallet'),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names the bad identifier in a comma-delimited, multi-line list', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NotifyForm onSubmit={onSubmit} isPending={false} />);
    await user.type(screen.getByRole('textbox'), '0917 123 4567,{Enter}hello there, me@example.com');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText(
        '"hello there" is not an e-mail, mobile number, website, social media account link or crypto wallet address',
      ),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('passes a valid list on', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NotifyForm onSubmit={onSubmit} isPending={false} />);
    await user.type(screen.getByRole('textbox'), 'me@example.com, my-shop.ph');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith(
        { assetName: 'me@example.com, my-shop.ph' },
        expect.any(Function),
      ),
    );
  });
});
