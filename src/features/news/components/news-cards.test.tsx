import { createTestQueryClient, renderApp, screen } from '@/testing/test-utils';
import { newsKeys } from '../api/keys';
import type { NewsArticle } from '../api/types';
import { FRONT_PAGE_NEWS_LIMIT, FrontPageNews } from './front-page-news';
import { NewsList } from './news-list';

const longTitle = 'Fake GCash "reward points" texts lead to look-alike login pages';
const longText =
  'Subscribers are receiving text messages saying their e-wallet reward points are about to expire. '.repeat(
    5,
  );

const article: NewsArticle = {
  id: 'c7d81b69-4946-2e2f-1bb5-fdf18dd1d006',
  newsTitle: longTitle,
  newsDescription: longText,
  tags: ['gcash', 'phishing'],
  imgUrl: null,
  source: 'https://www.gcash.com/',
  sourceDesc: 'GCash advisory',
  imageUrl: null,
  createdAt: '2026-11-19T00:00:00Z',
};

describe('news cards', () => {
  it('front-page cards cut the title at 35 and the description at 97 characters, then an ellipsis', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(newsKeys.list({ limit: FRONT_PAGE_NEWS_LIMIT }), [article]);
    renderApp(<FrontPageNews />, { queryClient });
    const link = await screen.findByRole('link', { name: `${longTitle.slice(0, 35).trimEnd()}...` });
    expect(link).toHaveAttribute('href', `/news-article/${article.id}`);
    expect(screen.getByText(`${longText.slice(0, 97).trimEnd()}...`)).toBeInTheDocument();
  });

  it("says 'No News Found' when there is no news", async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(newsKeys.list({ limit: FRONT_PAGE_NEWS_LIMIT }), []);
    renderApp(<FrontPageNews />, { queryClient });
    expect(await screen.findByText('No News Found')).toBeInTheDocument();
  });

  it("the news list cuts titles at 40 and descriptions at 200, with a 'Read full Article' link", async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(newsKeys.list({}), [article]);
    renderApp(<NewsList />, { queryClient });
    expect(
      await screen.findByRole('heading', { name: `${longTitle.slice(0, 40).trimEnd()}...` }),
    ).toBeInTheDocument();
    expect(screen.getByText(`${longText.slice(0, 200).trimEnd()}...`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `Read full Article: ${longTitle}` })).toHaveAttribute(
      'href',
      `/news-article/${article.id}`,
    );
    // Top News lists the full titles.
    expect(screen.getByRole('link', { name: longTitle })).toBeInTheDocument();
  });
});
