import { render, screen } from '@testing-library/react';
import { SubmitButton } from './submit-button';

describe('SubmitButton', () => {
  it("reads 'submit' and can be clicked while idle", () => {
    render(<SubmitButton isPending={false} />);
    const button = screen.getByRole('button', { name: 'submit' });
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute('type', 'submit');
  });

  it("reads 'submitting...' and is disabled while the request runs", () => {
    render(<SubmitButton isPending />);
    const button = screen.getByRole('button', { name: 'submitting...' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });
});
