/**
 * Every route of the app in one place (docs/behaviour.md §2), so links and redirects never spell a path
 * by hand. `path` is the router pattern; `getHref` builds a link with its parameters encoded.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  search: {
    path: '/search/:searchString',
    getHref: (searchString: string) => `/search/${encodeURIComponent(searchString)}`,
  },
  /** Checking a whole message; `text` rides in the address only where page state cannot (login, share). */
  check: {
    path: '/check',
    getHref: (text?: string) => (text ? `/check?text=${encodeURIComponent(text)}` : '/check'),
  },
  statistics: { path: '/statistics', getHref: () => '/statistics' },
  /** The search of a masked most-reported identifier, by its handle (not its value). */
  statisticsTop: {
    path: '/statistics/top/:ref',
    getHref: (ref: string) => `/statistics/top/${encodeURIComponent(ref)}`,
  },
  developers: { path: '/developers', getHref: () => '/developers' },
  news: { path: '/news', getHref: () => '/news' },
  newsList: { path: '/news-article', getHref: () => '/news-article' },
  newsArticle: {
    path: '/news-article/:id',
    getHref: (id: string | number) => `/news-article/${encodeURIComponent(String(id))}`,
  },
  about: { path: '/about', getHref: () => '/about' },
  donate: { path: '/donate', getHref: () => '/donate' },
  guide: { path: '/guide', getHref: () => '/guide' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  tos: { path: '/tos', getHref: () => '/tos' },
  faq: { path: '/faq', getHref: () => '/faq' },
  contact: { path: '/contact', getHref: () => '/contact' },
  comingSoon: { path: '/coming-soon', getHref: () => '/coming-soon' },
  thankyou: { path: '/thankyou', getHref: () => '/thankyou' },
  auth: {
    register: { path: '/register', getHref: () => '/register' },
    login: {
      path: '/login',
      /** `redirectTo` brings the user back to the page that needed a login. */
      getHref: (redirectTo?: string | null) =>
        redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login',
    },
    twoFactor: {
      path: '/two-factor-authentication',
      pathWithId: '/two-factor-authentication/:id',
      getHref: (id?: string) =>
        id ? `/two-factor-authentication/${encodeURIComponent(id)}` : '/two-factor-authentication',
    },
    forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  },
  dashboard: {
    root: { path: '/dashboard', getHref: () => '/dashboard' },
    addReport: { path: '/dashboard/add-report', getHref: () => '/dashboard/add-report' },
    search: { path: '/dashboard/search', getHref: () => '/dashboard/search' },
    searchResults: {
      path: '/dashboard/search/:id',
      getHref: (searchString: string) => `/dashboard/search/${encodeURIComponent(searchString)}`,
    },
    allReports: { path: '/dashboard/all-reports', getHref: () => '/dashboard/all-reports' },
    report: {
      path: '/dashboard/all-reports/:id',
      getHref: (id: string | number) => `/dashboard/all-reports/${encodeURIComponent(String(id))}`,
    },
    editReport: {
      path: '/dashboard/edit-report/:id',
      getHref: (id: string | number) => `/dashboard/edit-report/${encodeURIComponent(String(id))}`,
    },
    deleteReport: {
      path: '/dashboard/delete-report/:id',
      getHref: (id: string | number) => `/dashboard/delete-report/${encodeURIComponent(String(id))}`,
    },
    stats: { path: '/dashboard/stats', getHref: () => '/dashboard/stats' },
    profile: { path: '/dashboard/profile', getHref: () => '/dashboard/profile' },
    notifyMe: { path: '/dashboard/notify-me', getHref: () => '/dashboard/notify-me' },
    /** Right of reply (issue 32): prove an identifier, answer, watch, ask for removal. */
    ownership: { path: '/dashboard/ownership', getHref: () => '/dashboard/ownership' },
    apiKeys: { path: '/dashboard/api-keys', getHref: () => '/dashboard/api-keys' },
    addNews: { path: '/dashboard/add-news', getHref: () => '/dashboard/add-news' },
    admin: {
      root: { path: '/dashboard/admin', getHref: () => '/dashboard/admin' },
      users: { path: '/dashboard/admin/users', getHref: () => '/dashboard/admin/users' },
      messages: { path: '/dashboard/admin/messages', getHref: () => '/dashboard/admin/messages' },
      allReports: { path: '/dashboard/admin/all-reports', getHref: () => '/dashboard/admin/all-reports' },
      searches: { path: '/dashboard/admin/searches', getHref: () => '/dashboard/admin/searches' },
      visitors: { path: '/dashboard/admin/visitors', getHref: () => '/dashboard/admin/visitors' },
      pendingReports: {
        path: '/dashboard/admin/pending-reports',
        getHref: () => '/dashboard/admin/pending-reports',
      },
      takedowns: { path: '/dashboard/admin/takedowns', getHref: () => '/dashboard/admin/takedowns' },
      partnerKeys: { path: '/dashboard/admin/partner-keys', getHref: () => '/dashboard/admin/partner-keys' },
      ownerStatements: {
        path: '/dashboard/admin/owner-statements',
        getHref: () => '/dashboard/admin/owner-statements',
      },
      ownershipReviews: {
        path: '/dashboard/admin/ownership-reviews',
        getHref: () => '/dashboard/admin/ownership-reviews',
      },
    },
  },
} as const;
