import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeSupabase } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { emailHash } from '../api/pending-signup';
import { OtpForm } from './otp-form';
import { RegisterForm } from './register-form';

describe('RegisterForm', () => {
  it('requires name, email and password, and a password of at least 8 characters', async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    renderApp(<RegisterForm onSuccess={onSuccess} />);
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();
    expect(onSuccess).not.toHaveBeenCalled();
  });
});

describe('OtpForm', () => {
  it('prefills the remembered e-mail and requires the 10-digit one-time password', async () => {
    const user = userEvent.setup();
    const onVerified = vi.fn();
    renderApp(<OtpForm defaultEmail="maria@example.com" onVerified={onVerified} />);
    expect(screen.getByLabelText('Email')).toHaveValue('maria@example.com');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('The one-time password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('One-time password'), '12ab');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter the 10-digit code from the e-mail')).toBeInTheDocument();
    expect(onVerified).not.toHaveBeenCalled();
  });

  it('sends a new code, and says so; a refused resend is the error path’s toast', async () => {
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    let refuse = false;
    const api = fakeSupabase((req) =>
      req.path === '/auth/v1/resend'
        ? refuse
          ? Response.json(
              { code: 429, error_code: 'over_email_send_rate_limit', msg: 'Wait 60 seconds' },
              { status: 429 },
            )
          : Response.json({})
        : undefined,
    );
    const user = userEvent.setup();
    renderApp(<OtpForm defaultEmail="maria@example.com" onVerified={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Send me a new code' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('A new code is on its way'));
    expect(api.sent('POST', '/auth/v1/resend')[0].body).toMatchObject({
      type: 'signup',
      email: 'maria@example.com',
    });
    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Send me a new code' }));
    // Told by Auth's error code, in the reader's language, not by its English sentence.
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Too many e-mails were sent; wait a minute and try again', {
        position: 'bottom-right',
      }),
    );
    expect(success).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeEnabled();
    vi.restoreAllMocks();
  });
});

describe('emailHash', () => {
  it('is the SHA-256 of the trimmed, lower-cased e-mail, so the URL never shows the address', async () => {
    const hash = await emailHash('  Maria@Example.com ');
    // printf %s maria@example.com | sha256sum
    expect(hash).toBe('10ef04a5a1acd81d18a0c61fdd354a063da07223720a1d8760aa5c2afa5e8ee0');
    expect(hash).toBe(await emailHash('maria@example.com'));
    expect(hash).not.toContain('maria');
  });
});
