import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import '@/i18n';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient } from '@/lib/react-query';
import { ThemeProvider } from '@/lib/theme';
import { ProfileLanguageSync } from '@/features/profile/components/profile-language-sync';

/** Toasts as docs/behaviour.md §9: top-right by default, closing after 5000 ms, light theme. */
export const TOAST_DURATION_MS = 5000;

// Toasts start below the header bar, so a toast never covers the user menu, language or theme switch a
// user reaches for next (issue 37). The public header publishes its height as --app-header-height (it grows
// when its links wrap); the dashboard's 64 px top bar (4rem) is the fallback, giving 4.5rem.
const TOAST_TOP = 'calc(var(--app-header-height, 4rem) + 0.5rem)';
const TOAST_OFFSET = { top: TOAST_TOP, right: '1rem' } as const;
const TOAST_MOBILE_OFFSET = { top: TOAST_TOP, left: '0.5rem', right: '0.5rem' } as const;

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
              mobileOffset={TOAST_MOBILE_OFFSET}
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
