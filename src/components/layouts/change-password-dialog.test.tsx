import userEvent from '@testing-library/user-event';
import type { AuthError, UserResponse } from '@supabase/supabase-js';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { supabase } from '@/lib/supabase';
import { ChangePasswordDialog } from './change-password-dialog';

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const refusal = (code: string, status = 400) =>
  ({
    data: { user: null },
    error: { code, status, message: `refused: ${code}` } as AuthError,
  }) as UserResponse;

async function fillNewPassword(user: ReturnType<typeof userEvent.setup>, password = 'a new passphrase') {
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), password);
}

describe('ChangePasswordDialog', () => {
  it('needs the current password, 8 characters and the same password twice before asking Supabase Auth', async () => {
    const updateUser = vi.spyOn(supabase.auth, 'updateUser');
    const user = userEvent.setup({ delay: null });
    renderApp(<ChangePasswordDialog open onOpenChange={() => {}} />);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Enter your current password')).toBeInTheDocument();
    expect(updateUser).not.toHaveBeenCalled();
  });

  it('sends the current password with the new one, and says so under the field when it is wrong', async () => {
    const updateUser = vi
      .spyOn(supabase.auth, 'updateUser')
      .mockResolvedValue(refusal('invalid_credentials'));
    const user = userEvent.setup({ delay: null });
    renderApp(<ChangePasswordDialog open onOpenChange={() => {}} />);
    await user.type(screen.getByLabelText('Current password'), 'my old one');
    await fillNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Your current password is not correct')).toBeInTheDocument();
    expect(updateUser).toHaveBeenCalledWith({ password: 'a new passphrase', current_password: 'my old one' });
  });

  it('e-mails a code for those who forgot the password, and sends it as the nonce', async () => {
    const reauthenticate = vi
      .spyOn(supabase.auth, 'reauthenticate')
      .mockResolvedValue({ data: { user: null, session: null }, error: null });
    const updateUser = vi
      .spyOn(supabase.auth, 'updateUser')
      .mockResolvedValueOnce(refusal('reauthentication_not_valid', 422))
      .mockResolvedValueOnce({ data: { user: null }, error: null } as unknown as UserResponse);
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<ChangePasswordDialog open onOpenChange={onOpenChange} />);
    await user.click(screen.getByRole('button', { name: 'Forgot it? E-mail me a code instead' }));
    expect(reauthenticate).toHaveBeenCalledOnce();
    const code = await screen.findByLabelText('Code from the e-mail');
    await user.type(code, '12ab');
    await fillNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter the code from the e-mail (digits only)')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText('The code is wrong or has expired; e-mail yourself a new one'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(updateUser).toHaveBeenLastCalledWith({ password: 'a new passphrase', nonce: '123456' });
  });
});
