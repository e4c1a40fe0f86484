import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { NewsRow } from '../api/types';
import { NewsAdminList } from './news-admin-list';

afterEach(() => vi.restoreAllMocks());

const ADMIN_ID = '00000000-0000-4000-a000-00000000ad01';

/** `count` articles, newest first: 'Article 1' is the latest. */
function articles(count: number): NewsRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    news_title: `Article ${i + 1}`,
    news_description: 'Body',
    tags: [],
    img_url: null,
    source: null,
    source_desc: i === 0 ? 'Philippine News Agency' : null,
    banner_path: i === 0 ? `${ADMIN_ID}/banner-1.png` : null,
    created_at: new Date(Date.UTC(2026, 10, 30 - i)).toISOString(),
    updated_at: new Date(Date.UTC(2026, 10, 30 - i)).toISOString(),
  }));
}

/**
 * public.news behind PostgREST, as an admin sees it: pages by offset and limit with the exact count,
 * deletes that return the deleted row, and the storage remove call. `refuseDelete` answers deletes
 * as the database does for someone who may not delete.
 */
function fakeNewsTable(rows: NewsRow[], { refuseDelete = false } = {}) {
  const table = [...rows];
  const api = fakeSupabase((req: FakeRequest) => {
    if (req.path === '/rest/v1/news' && req.method === 'GET') {
      const offset = Number(req.url.searchParams.get('offset') ?? 0);
      const limit = Number(req.url.searchParams.get('limit') ?? table.length);
      const page = table.slice(offset, offset + limit);
      return json(page, {
        headers: { 'content-range': `${offset}-${offset + page.length - 1}/${table.length}` },
      });
    }
    if (req.path === '/rest/v1/news' && req.method === 'DELETE') {
      if (refuseDelete)
        return json(
          { code: '42501', message: 'permission denied for table news', details: null, hint: null },
          { status: 403 },
        );
      const id = req.url.searchParams.get('id')?.replace(/^eq\./, '');
      const gone = table.filter((r) => r.id === id);
      table.splice(
        table.findIndex((r) => r.id === id),
        gone.length,
      );
      return json(gone.map(({ id, banner_path }) => ({ id, banner_path })));
    }
    if (req.path === '/storage/v1/object/news-banners' && req.method === 'DELETE') return json([]);
  });
  return api;
}

const rowTitles = () =>
  screen.getAllByTestId('news-row').map((li) => within(li).getByRole('link', { hidden: true }).textContent);

describe('NewsAdminList', () => {
  it("lists the news newest first, ten at a time, with 'Load more' until all are shown", async () => {
    const api = fakeNewsTable(articles(12));
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={() => {}} />);

    await waitFor(() => expect(screen.getAllByTestId('news-row')).toHaveLength(10));
    expect(rowTitles().slice(0, 3)).toEqual(['Article 1', 'Article 2', 'Article 3']);
    expect(screen.getByTestId('news-count')).toHaveTextContent('Showing 10 of 12');
    const [first] = api.sent('GET', '/rest/v1/news');
    expect(first.url.searchParams.get('order')).toBe('created_at.desc,id.desc');
    expect(first.headers.get('prefer')).toContain('count=exact');
    // Each article links to its public page.
    expect(screen.getByRole('link', { name: 'Article 1' })).toHaveAttribute(
      'href',
      '/news-article/00000000-0000-4000-8000-000000000001',
    );

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('news-row')).toHaveLength(12));
    expect(api.sent('GET', '/rest/v1/news')[1].url.searchParams.get('offset')).toBe('10');
    expect(screen.getByTestId('news-count')).toHaveTextContent('Showing 12 of 12');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('Edit hands the whole article to the form', async () => {
    const rows = articles(2);
    fakeNewsTable(rows);
    const onEdit = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={onEdit} />);
    await user.click(await screen.findByRole('button', { name: 'Edit Article 2' }));
    expect(onEdit).toHaveBeenCalledWith(rows[1]);
  });

  it('Delete asks first; confirmed, it deletes the row and its banner, says so and the row disappears', async () => {
    const api = fakeNewsTable(articles(3));
    const onDeleted = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={() => {}} onDeleted={onDeleted} />);

    await user.click(await screen.findByRole('button', { name: 'Delete Article 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this article?' });
    expect(dialog).toHaveTextContent('Article 1 and its banner are deleted for good');
    // Keeping it sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('DELETE', '/')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Article 1' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete article' }),
    );
    expect(await screen.findByText('News deleted successfully')).toBeInTheDocument();
    const [del] = api.sent('DELETE', '/rest/v1/news');
    expect(del.url.searchParams.get('id')).toBe('eq.00000000-0000-4000-8000-000000000001');
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([
      { prefixes: [`${ADMIN_ID}/banner-1.png`] },
    ]);
    expect(onDeleted).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000001');
    await waitFor(() => expect(rowTitles()).toEqual(['Article 2', 'Article 3']));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('an article without a banner leaves storage alone', async () => {
    const api = fakeNewsTable(articles(2));
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Article 2' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete article' }),
    );
    expect(await screen.findByText('News deleted successfully')).toBeInTheDocument();
    expect(api.sent('DELETE', '/storage/')).toEqual([]);
  });

  it("shows the server's message when the delete is refused, and keeps the article", async () => {
    const api = fakeNewsTable(articles(2), { refuseDelete: true });
    const onDeleted = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={() => {}} onDeleted={onDeleted} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Article 1' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete article' }),
    );
    expect(await screen.findByText('You are not allowed to do this')).toBeInTheDocument();
    expect(screen.queryByText('News deleted successfully')).not.toBeInTheDocument();
    expect(api.sent('DELETE', '/storage/')).toEqual([]);
    expect(onDeleted).not.toHaveBeenCalled();
    expect(rowTitles()).toEqual(['Article 1', 'Article 2']);
  });

  it("says 'No News Found' when there is none", async () => {
    fakeNewsTable([]);
    renderApp(<NewsAdminList onEdit={() => {}} />);
    expect(await screen.findByText('No News Found')).toBeInTheDocument();
  });

  it('reads in Filipino: the list, the count, the confirmation and the toast', async () => {
    await i18n.changeLanguage('fil');
    fakeNewsTable(articles(12));
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsAdminList onEdit={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Mga nailathalang balita' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('news-row')).toHaveLength(10));
    expect(screen.getByTestId('news-count')).toHaveTextContent('Ipinapakita ang 10 sa 12');
    expect(screen.getByRole('button', { name: 'Magpakita pa' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Burahin ang Article 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Burahin ang artikulong ito?' });
    expect(dialog).toHaveTextContent('Tuluyang mabubura ang Article 1 at ang banner nito');
    expect(within(dialog).getByText('Article 1').tagName).toBe('STRONG');
    await user.click(within(dialog).getByRole('button', { name: 'Burahin ang artikulo' }));
    expect(await screen.findByText('Nabura ang balita')).toBeInTheDocument();
  });
});
