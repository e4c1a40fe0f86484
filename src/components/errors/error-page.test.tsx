import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ErrorPage } from './error-page';
import { NotFound } from './not-found';

function Crash(): never {
  throw new Error('boom');
}

describe('error pages', () => {
  it("a crashing page shows 'Something went wrong, Please try again' instead of a blank screen", () => {
    // React and the router report the crash on the console; the test is about what the user sees.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([{ path: '/', element: <Crash />, errorElement: <ErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(
      screen.getByRole('heading', { name: 'Something went wrong, Please try again' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    quiet.mockRestore();
    warn.mockRestore();
  });

  it("the not-found page says 'Page Not Found' with a link home", () => {
    const router = createMemoryRouter([{ path: '*', element: <NotFound /> }], { initialEntries: ['/nope'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });
});
