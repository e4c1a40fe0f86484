import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import '@/i18n';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient } from '@/lib/react-query';
import { ThemeProvider } from '@/lib/theme';
import { ProfileLanguageSync } from '@/features/profile/components/profile-language-sync';

/** Toasts as docs/behaviour.md §9: top-right by default, closing after 5000 ms, light theme. */
export const TOAST_DURATION_MS = 5000;

/**
 * Top-right, but below the header (issue 37): a success toast stays 5 s and used to sit over the header's
 * menu, language and theme buttons. The public header publishes its height as --app-header-height (it
 * grows when its links wrap); the dashboard's top bar is 4rem, the fallback.
 */
export const TOAST_OFFSET = { top: 'calc(var(--app-header-height, 4rem) + 0.5rem)' } as const;

// sonner loads after the first paint: nothing toasts before a user acts, and sonner replays any
// toast raised before its Toaster subscribed. This keeps ~10 KB gzipped off the home page's first load.
const Toaster = lazy(() => import('@/components/ui/sonner').then((m) => ({ default: m.Toaster })));

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          <ProfileLanguageSync />
          {children}
          <Suspense fallback={null}>
            <Toaster
              position="top-right"
              offset={TOAST_OFFSET}
              mobileOffset={TOAST_OFFSET}
              duration={TOAST_DURATION_MS}
              richColors
              closeButton
            />
          </Suspense>
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
