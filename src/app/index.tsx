import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';

function AppRouter() {
  const queryClient = useQueryClient();
  // One router for the app's life; loaders prefetch into the same cache the pages read.
  const [router] = useState(() => createAppRouter(queryClient));
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <AppProvider>
      <AppRouter />
    </AppProvider>
  );
}
