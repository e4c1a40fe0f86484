import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { Component as Messages } from './messages';

vi.setConfig({ testTimeout: 20_000 });
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

const REPORT_ID = '11111111-2222-4333-8444-555555555555';
const MESSAGE = {
  id: '00000000-0000-4000-8000-0000000000aa',
  nickname: 'Lito',
  email: 'lito@example.com',
  subject: 'Wrong report',
  message: `Report ${REPORT_ID} about 0917 123 4567 is wrong, it is my shop.`,
  handled_at: '2026-11-27T08:00:00Z',
  created_at: '2026-11-26T08:00:00Z',
};

function fakeInbox(replyStatus = 201) {
  return fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/contact_messages')
      return json([MESSAGE], { headers: { 'content-range': '0-0/1' } });
    if (req.path === '/rest/v1/rpc/admin_contact_message_extras')
      return json({
        [MESSAGE.id]: {
          handled_by_email: 'rosa@example.com',
          replies: [
            {
              id: 'r1',
              body: 'We are looking into it.',
              sent_to: 'lito@example.com',
              created_at: '2026-11-27T08:00:00Z',
              sent_at: '2026-11-27T08:00:01Z',
              send_error: null,
              admin_email: 'rosa@example.com',
            },
          ],
          reports: [{ id: REPORT_ID, reported_account: '09171234567', status: 'verified' }],
        },
      });
    if (req.path === '/functions/v1/contact-reply')
      return replyStatus === 201
        ? json({ reply: 'r2', sent: true, to: 'lito@example.com' }, { status: 201 })
        : json({ msg: 'The reply is saved but the e-mail failed' }, { status: replyStatus });
  });
}

describe('admin messages', () => {
  it('shows the named report and identifier, who handled it and the replies; replies by e-mail', async () => {
    const api = fakeInbox();
    const user = userEvent.setup({ delay: null });
    renderApp(<Messages />, { url: '/dashboard/admin/messages' });
    const extras = await screen.findByTestId('message-extras', {}, { timeout: 8000 });
    expect(await within(extras).findByText('Handled by rosa@example.com')).toBeInTheDocument();
    expect(within(extras).getByRole('link', { name: 'report on 09171234567 (verified)' })).toHaveAttribute(
      'href',
      '/search/09171234567',
    );
    expect(within(extras).getByRole('link', { name: '0917 123 4567' })).toHaveAttribute(
      'href',
      `/search/${encodeURIComponent('0917 123 4567')}`,
    );
    expect(within(extras).getByTestId('message-reply')).toHaveTextContent(
      'rosa@example.com replied to lito@example.com on Nov 27, 2026:We are looking into it.',
    );

    await user.click(within(extras).getByRole('button', { name: 'Reply by e-mail' }));
    await user.click(within(extras).getByRole('button', { name: 'Send the reply' }));
    expect(await within(extras).findByText('Write your reply.')).toBeInTheDocument();
    expect(api.sent('POST', '/functions/v1/contact-reply')).toHaveLength(0);

    await user.type(within(extras).getByLabelText('Your reply to lito@example.com'), '  Thanks, fixed.  ');
    await user.click(within(extras).getByRole('button', { name: 'Send the reply' }));
    await waitFor(() => expect(api.sent('POST', '/functions/v1/contact-reply')).toHaveLength(1));
    expect(api.sent('POST', '/functions/v1/contact-reply')[0].body).toEqual({
      message: MESSAGE.id,
      body: 'Thanks, fixed.',
    });
    expect(await screen.findByText('Reply sent to lito@example.com.')).toBeInTheDocument();
  });

  it('in Filipino', async () => {
    fakeInbox();
    await i18n.changeLanguage('fil');
    renderApp(<Messages />, { url: '/dashboard/admin/messages' });
    const extras = await screen.findByTestId('message-extras', {}, { timeout: 8000 });
    expect(await within(extras).findByText('Inasikaso ni rosa@example.com')).toBeInTheDocument();
    expect(within(extras).getByRole('button', { name: 'Sumagot sa e-mail' })).toBeInTheDocument();
    expect(
      within(extras).getByRole('link', { name: 'report tungkol sa 09171234567 (beripikado)' }),
    ).toBeInTheDocument();
  });
});
