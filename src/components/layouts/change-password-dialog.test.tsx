import userEvent from '@testing-library/user-event';
import { renderApp, screen } from '@/testing/test-utils';
import { supabase } from '@/lib/supabase';
import { ChangePasswordDialog } from './change-password-dialog';

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('ChangePasswordDialog', () => {
  it('needs 8 characters and the same password twice before asking Supabase Auth', async () => {
    const updateUser = vi.spyOn(supabase.auth, 'updateUser');
    const user = userEvent.setup({ delay: null });
    renderApp(<ChangePasswordDialog open onOpenChange={() => {}} />);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();
    expect(updateUser).not.toHaveBeenCalled();
  });
});
