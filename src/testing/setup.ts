import '@testing-library/jest-dom/vitest';
import { toast } from 'sonner';

// sonner keeps toasts in a module-level store and replays the active ones to every new Toaster, so
// without this a toast from one test would show up (and satisfy findByText) in the next.
afterEach(() => {
  toast.dismiss();
});
