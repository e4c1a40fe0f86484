/**
 * Applies the stored dark-theme choice before the first paint (src/lib/theme.tsx keeps it in sync
 * afterwards). Inlined into index.html's head by src/boot/build/vite-plugins.ts, so it stands alone.
 */
export function applyStoredTheme(): void {
  try {
    if (localStorage.getItem('darkTheme') === 'true') document.documentElement.classList.add('dark');
  } catch {
    // No storage: the light theme.
  }
}
