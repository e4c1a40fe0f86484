import { renderApp, screen } from '@/testing/test-utils';
import { env } from '@/config/env';
import { Component as Donate } from './donate';

describe('Donate page', () => {
  afterEach(() => {
    env.VITE_DONATION_URL = undefined;
  });

  it('offers the amounts of docs/behaviour.md §9, leading to coming soon until a provider is set', () => {
    renderApp(<Donate />);
    const labels = ['$3.25', '$9.95', '$25', '$40', '$1 per minute', '$5 per minute', '$10 per minute'];
    for (const label of labels) {
      expect(screen.getByRole('link', { name: label })).toHaveAttribute('href', '/coming-soon');
    }
    expect(screen.getByText(/Our Ethereum address will be published here/)).toBeInTheDocument();
  });

  it('links each amount to the payment provider once VITE_DONATION_URL is set', () => {
    env.VITE_DONATION_URL = 'https://pay.example.org/donate';
    renderApp(<Donate />);
    const once = new URL(screen.getByRole('link', { name: '$9.95' }).getAttribute('href')!);
    expect(once.origin + once.pathname).toBe('https://pay.example.org/donate');
    expect(once.searchParams.get('amount')).toBe('9.95');
    expect(once.searchParams.get('interval')).toBeNull();
    const recurring = new URL(screen.getByRole('link', { name: '$5 per minute' }).getAttribute('href')!);
    expect(recurring.searchParams.get('amount')).toBe('5.00');
    expect(recurring.searchParams.get('interval')).toBe('minute');
    expect(screen.getByRole('link', { name: '$5 per minute' })).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
