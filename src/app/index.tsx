import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';

export type AppRouter = ReturnType<typeof createAppRouter>;

function AppRouterProvider({ router: given }: { router?: AppRouter }) {
  const queryClient = useQueryClient();
  // One router for the app's life; loaders prefetch into the same cache the pages read.
  const [router] = useState(() => given ?? createAppRouter(queryClient));
  return <RouterProvider router={router} />;
}

/** `router`, if given, must have been made with `queryClient` (main.tsx makes both before rendering). */
export function App({ queryClient, router }: { queryClient?: QueryClient; router?: AppRouter }) {
  return (
    <AppProvider queryClient={queryClient}>
      <AppRouterProvider router={router} />
    </AppProvider>
  );
}
