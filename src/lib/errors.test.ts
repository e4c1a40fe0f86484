import { toast } from 'sonner';
import { errorMessage, toastError } from './errors';

describe('errorMessage', () => {
  it('reads the message of an Error, a PostgREST error, an Auth error body and a plain string', () => {
    expect(errorMessage(new Error('Row not found'))).toBe('Row not found');
    expect(errorMessage({ msg: 'Image size too large' })).toBe('Image size too large');
    expect(errorMessage({ error_description: 'Invalid login credentials' })).toBe(
      'Invalid login credentials',
    );
    expect(errorMessage('Too many requests')).toBe('Too many requests');
  });

  it('prefers message, then msg, then error_description, skipping blank and non-text ones', () => {
    expect(errorMessage({ message: 'first', msg: 'second', error_description: 'third' })).toBe('first');
    expect(errorMessage({ message: '  ', msg: 'second', error_description: 'third' })).toBe('second');
    expect(errorMessage({ message: 7, msg: null, error_description: 'third' })).toBe('third');
  });

  it('falls back to the generic text for anything else', () => {
    for (const e of [null, undefined, 42, {}, { message: '' }])
      expect(errorMessage(e)).toBe('Something went wrong, Please try again');
  });
});

describe('toastError', () => {
  it('shows the message at the bottom right (docs/behaviour.md §8)', async () => {
    const spy = vi.spyOn(toast, 'error');
    await toastError(new Error('Row not found'));
    expect(spy).toHaveBeenCalledWith('Row not found', { position: 'bottom-right' });
    spy.mockRestore();
  });
});
