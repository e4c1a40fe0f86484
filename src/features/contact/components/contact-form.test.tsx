import userEvent from '@testing-library/user-event';
import { fakeSupabase, json } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { ContactForm } from './contact-form';

afterEach(() => vi.restoreAllMocks());

describe('ContactForm', () => {
  it('requires only the message; an e-mail, when typed, must be valid', async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const api = fakeSupabase(() => undefined);
    renderApp(<ContactForm onSuccess={onSuccess} />);
    expect(
      screen.getByText('Without an e-mail address we can read your message but cannot answer it.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Message is required')).toBeInTheDocument();
    expect(screen.queryByText(/Email is required/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email (optional)'), 'not-an-email');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(api.requests).toEqual([]);
  });

  it('sends a message without an e-mail address (stored as none)', async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const api = fakeSupabase((req) =>
      req.method === 'POST' && req.path === '/rest/v1/contact_messages'
        ? json(null, { status: 201 })
        : undefined,
    );
    renderApp(<ContactForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Message'), 'Is 0917 555 0142 a scam?');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(api.sent('POST', '/rest/v1/contact_messages').map((r) => r.body)).toEqual([
      { nickname: null, email: null, subject: null, message: 'Is 0917 555 0142 a scam?' },
    ]);
  });
});
