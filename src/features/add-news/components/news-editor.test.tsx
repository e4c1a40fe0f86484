import userEvent from '@testing-library/user-event';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import type { NewsRow } from '../api/types';
import { NewsEditor } from './news-editor';

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const ADMIN_ID = '00000000-0000-4000-a000-00000000ad01';
const article: NewsRow = {
  id: 'c7d81b69-4946-4e2f-9bb5-fdf18dd1d006',
  news_title: 'Parcel delivery texts ask for a "redelivery fee"',
  news_description: 'Couriers do not collect fees through links in text messages.',
  tags: ['sms', 'delivery'],
  img_url: null,
  source: 'https://www.pna.gov.ph/',
  source_desc: 'Philippine News Agency',
  banner_path: `${ADMIN_ID}/old-banner.png`,
  created_at: '2026-11-19T00:00:00Z',
  updated_at: '2026-11-19T00:00:00Z',
};
const png = () => new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'banner.png', { type: 'image/png' });

/** The news API as an admin sees it; `upload` and `patch` decide how those answers go. */
function fakeNewsApi({ upload = 'ok', patch = 'ok' }: { upload?: 'ok' | 'refused'; patch?: 'ok' | 'gone' } = {}) {
  return fakeSupabase((req: FakeRequest) => {
    if (req.method === 'POST' && req.path.startsWith('/storage/v1/object/news-banners/')) {
      return upload === 'ok'
        ? json({ Key: req.path.replace('/storage/v1/object/', ''), Id: 'x' })
        : json({ statusCode: '403', error: 'Unauthorized', message: 'new row violates row-level security policy' }, { status: 400 });
    }
    if (req.method === 'PATCH' && req.path === '/rest/v1/news') return json(patch === 'ok' ? [{ id: article.id }] : []);
    if (req.method === 'DELETE' && req.path === '/storage/v1/object/news-banners') return json([]);
  });
}

describe('NewsEditor', () => {
  it('fills the form with the article, saves the changes with an update and says so', async () => {
    const api = fakeNewsApi();
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);

    expect(screen.getByRole('form', { name: 'Edit News form' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue(article.news_title);
    expect(screen.getByLabelText('Article')).toHaveValue(article.news_description);
    expect(screen.getByLabelText('Tags')).toHaveValue('sms, delivery');
    expect(screen.getByLabelText('Source link')).toHaveValue('https://www.pna.gov.ph/');
    expect(screen.getByLabelText('Source name')).toHaveValue('Philippine News Agency');
    expect(screen.getByLabelText('Image address')).toHaveValue('');
    expect(screen.getByText(/Leave it empty to keep the current banner/)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Redelivery-fee texts are back');
    await user.type(screen.getByLabelText('Tags'), ', card fraud');
    await user.click(screen.getByRole('button', { name: 'submit' }));

    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    expect(onDone).toHaveBeenCalledTimes(1);
    const [patch] = api.sent('PATCH', '/rest/v1/news');
    expect(patch.url.searchParams.get('id')).toBe(`eq.${article.id}`);
    expect(patch.body).toEqual({
      news_title: 'Redelivery-fee texts are back',
      news_description: article.news_description,
      tags: ['sms', 'delivery', 'card fraud'],
      img_url: null,
      source: 'https://www.pna.gov.ph/',
      source_desc: 'Philippine News Agency',
    });
    // No new banner: the current one is neither replaced nor removed.
    expect(api.requests.filter((r) => r.path.startsWith('/storage/'))).toEqual([]);
    expect(api.sent('POST', '/rest/v1/news')).toEqual([]);
  });

  it('replaces the banner: uploads the new one, points the row at it, then removes the old one', async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();

    const [upload] = api.sent('POST', '/storage/v1/object/news-banners/');
    const newPath = upload.path.replace('/storage/v1/object/news-banners/', '');
    expect(newPath).toMatch(new RegExp(`^${ADMIN_ID}/[0-9a-f-]{36}\\.png$`));
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: string }).banner_path).toBe(newPath);
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([{ prefixes: [article.banner_path] }]);
    // Order matters: upload, then the row, then the old file.
    expect(api.requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'DELETE']);
  });

  it('removes the current banner when asked: the row points at none, then the file goes', async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.click(screen.getByRole('checkbox', { name: 'Remove the current banner' }));
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: unknown }).banner_path).toBeNull();
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([{ prefixes: [article.banner_path] }]);
    expect(api.requests.map((r) => r.method)).toEqual(['PATCH', 'DELETE']);
  });

  it('offers no removal for an article without a banner, and a new banner takes the place of removal', async () => {
    const view = renderApp(<NewsEditor userId={ADMIN_ID} editing={{ ...article, banner_path: null }} onDone={() => {}} />);
    expect(screen.queryByRole('checkbox', { name: 'Remove the current banner' })).not.toBeInTheDocument();
    view.unmount();

    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.click(screen.getByRole('checkbox', { name: 'Remove the current banner' }));
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    expect(screen.getByRole('checkbox', { name: 'Remove the current banner' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    const newPath = api.sent('POST', '/storage/v1/object/news-banners/')[0].path.replace('/storage/v1/object/news-banners/', '');
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: unknown }).banner_path).toBe(newPath);
  });

  it('leaves the article untouched when the banner upload fails, and shows the server message', async () => {
    const api = fakeNewsApi({ upload: 'refused' });
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('new row violates row-level security policy')).toBeInTheDocument();
    expect(api.sent('PATCH', '/rest/v1/news')).toEqual([]);
    expect(api.sent('DELETE', '/storage/')).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.queryByText('News Updated Sucessfully')).not.toBeInTheDocument();
  });

  it('removes the new upload again when the row cannot be saved', async () => {
    const api = fakeNewsApi({ patch: 'gone' });
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('This article no longer exists, or you may not change it')).toBeInTheDocument();
    const uploaded = api.sent('POST', '/storage/v1/object/news-banners/')[0].path.replace('/storage/v1/object/news-banners/', '');
    // The new file goes; the article's own banner stays.
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([{ prefixes: [uploaded] }]);
  });

  it("refuses a new banner over 500000 bytes with 'Image size too large' and sends nothing", async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), new File([new Uint8Array(500_001)], 'b.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Image size too large')).toBeInTheDocument();
    await waitFor(() => expect(api.requests).toEqual([]));
  });

  it('Cancel leaves edit mode without saving; without an article the card adds news', async () => {
    const api = fakeNewsApi();
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    const view = renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(api.requests).toEqual([]);
    view.unmount();

    renderApp(<NewsEditor userId={ADMIN_ID} editing={null} onDone={onDone} />);
    expect(screen.getByRole('form', { name: 'Add News form' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });
});
