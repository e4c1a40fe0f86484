import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** The local-storage key docs/behaviour.md §4 names; its value is 'true' or 'false'. */
export const DARK_THEME_KEY = 'darkTheme';

/**
 * Reads the stored preference. index.html runs the same check inline before the first paint, so the
 * page never flashes light before turning dark.
 */
export function readDarkTheme(): boolean {
  try {
    return localStorage.getItem(DARK_THEME_KEY) === 'true';
  } catch {
    // Storage can be blocked (private mode, strict cookie settings): fall back to light.
    return false;
  }
}

function applyDarkClass(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
}

interface ThemeContextValue {
  isDark: boolean;
  setDark: (dark: boolean) => void;
  toggle: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

/** `initialDark` overrides the stored choice (the build's page shell renders both themes). */
export function ThemeProvider({ children, initialDark }: { children: ReactNode; initialDark?: boolean }) {
  const [isDark, setIsDark] = useState(() => initialDark ?? readDarkTheme());

  useEffect(() => {
    applyDarkClass(isDark);
    try {
      localStorage.setItem(DARK_THEME_KEY, String(isDark));
    } catch {
      // Not persisting is acceptable: the toggle still works for this visit.
    }
  }, [isDark]);

  const setDark = useCallback((dark: boolean) => setIsDark(dark), []);
  const toggle = useCallback(() => setIsDark((d) => !d), []);
  const value = useMemo(() => ({ isDark, setDark, toggle }), [isDark, setDark, toggle]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useTheme must be used inside <ThemeProvider>');
  return ctx;
}
