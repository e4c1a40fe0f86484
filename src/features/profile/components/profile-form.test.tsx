import userEvent from '@testing-library/user-event';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { ProfileForm } from './profile-form';

const profile = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Juan',
  email: 'juan@example.com',
  avatarPath: null,
  isAdmin: false,
  language: 'en' as const,
};

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('ProfileForm', () => {
  // Issue 33: a large image is made smaller on the device (checked in a real browser in
  // tests/e2e/dashboard.test.ts); a file that is no image is refused, and so is the form.
  it('refuses an avatar that is no image (600,000 zero bytes) and sends nothing', async () => {
    const onSubmit = vi.fn();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup({ delay: null });
    renderApp(<ProfileForm profile={profile} onSubmit={onSubmit} isPending={false} />);
    await user.upload(
      screen.getByLabelText('Avatar'),
      new File([new Uint8Array(600_000)], 'me.jpg', { type: 'image/jpeg' }),
    );
    expect(
      await screen.findByText(
        'This image could not be read. Take a screenshot of it, or save it as JPEG or PNG, and try again.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() =>
      expect(
        screen.getByText(
          'This image could not be read. Take a screenshot of it, or save it as JPEG or PNG, and try again.',
        ),
      ).toBeInTheDocument(),
    );
    expect(onSubmit).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('requires a name and a valid e-mail', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<ProfileForm profile={profile} onSubmit={onSubmit} isPending={false} />);
    await user.clear(screen.getByLabelText('Name'));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter your name')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
