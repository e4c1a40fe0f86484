import userEvent from '@testing-library/user-event';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { ImageShrinkError, shrinkImage } from '@/lib/image-shrink';
import { emptyReportForm, todayISO } from '../api/report-form-schema';
import { ReportForm } from './report-form';

// jsdom cannot decode or draw images: the shrinking (lib/image-shrink.ts, checked in a real browser by
// tests/e2e/evidence.test.ts) is replaced by one that reports a smaller file or a refusal.
vi.mock('@/lib/image-shrink', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/image-shrink')>();
  return { ...actual, shrinkImage: vi.fn() };
});
const shrinkMock = vi.mocked(shrinkImage);
function shrinksTo(bytes: number) {
  shrinkMock.mockImplementation(async (file: File) => ({
    file: new File([new Uint8Array(bytes)], file.name.replace(/\.\w+$/, '.webp'), { type: 'image/webp' }),
    originalBytes: file.size,
    width: 1080,
    height: 2400,
    reencoded: true,
  }));
}

// jsdom has no ResizeObserver; Radix radio buttons measure themselves with it (a browser always has one).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

function image(bytes: number, type = 'image/png', name = 'evidence.png') {
  return new File([new Uint8Array(bytes)], name, { type });
}

function setup() {
  const onSubmit = vi.fn();
  const fetchSpy = vi.spyOn(globalThis, 'fetch');
  const user = userEvent.setup({ applyAccept: false, delay: null });
  renderApp(<ReportForm defaultValues={emptyReportForm()} onSubmit={onSubmit} isPending={false} />);
  return { onSubmit, fetchSpy, user };
}

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('ReportForm', () => {
  it('asks the authorities question and defaults the incident date to today, its maximum', () => {
    setup();
    expect(screen.getByText('Have you Notified authorities yet?')).toBeInTheDocument();
    const date = screen.getByLabelText('Incident date') as HTMLInputElement;
    expect(date.value).toBe(todayISO());
    expect(date.max).toBe(todayISO());
  });

  it('refuses an incident date after today', async () => {
    const { onSubmit, user } = setup();
    const date = screen.getByLabelText('Incident date');
    await user.clear(date);
    await user.type(date, '2999-01-01');
    await user.type(screen.getByLabelText('Reported account'), '0917 123 4567');
    await user.type(screen.getByLabelText('Incident description'), 'They asked for a fee.');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('The incident date cannot be in the future')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names what is missing and sends nothing', async () => {
    const { onSubmit, fetchSpy, user } = setup();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter the account you are reporting')).toBeInTheDocument();
    expect(screen.getByText('Describe what happened')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('checks the account against its type (a mobile number must look like one)', async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByLabelText('Reported account'), 'not a number');
    await user.type(screen.getByLabelText('Incident description'), 'They asked for a fee.');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('Enter a valid mobile number, e.g. 0917 123 4567')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shrinks a 1.3 MB screenshot on the device and shows its final size before anything is sent', async () => {
    shrinksTo(312_000);
    const { fetchSpy, user } = setup();
    await user.upload(screen.getByLabelText('Evidence (up to 5 screenshots)'), image(1_300_000));
    expect(await screen.findByText(/312 KB \(was 1\.3 MB\)/)).toBeInTheDocument();
    expect(screen.getByTestId('image-size')).toHaveTextContent('1080 × 2400');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('says why an image cannot be used (HEIC, not an image) and keeps the others', async () => {
    const { onSubmit, user } = setup();
    const actual = await vi.importActual<typeof import('@/lib/image-shrink')>('@/lib/image-shrink');
    shrinkMock.mockImplementation(actual.shrinkImage);
    await user.upload(
      screen.getByLabelText('Evidence (up to 5 screenshots)'),
      new File(['%PDF'], 'evidence.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText(/only jpeg, png, webp or gif images/i)).toBeInTheDocument();
    shrinkMock.mockRejectedValue(new ImageShrinkError('This browser cannot read iPhone HEIC photos.'));
    await user.upload(
      screen.getByLabelText('Evidence (up to 5 screenshots)'),
      new File([new Uint8Array(10)], 'IMG_1.HEIC', { type: 'image/heic' }),
    );
    expect(await screen.findByText('This browser cannot read iPhone HEIC photos.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes at most five images and says so when more are picked', async () => {
    shrinksTo(100_000);
    const { user } = setup();
    const six = Array.from({ length: 6 }, (_, i) => image(600_000, 'image/png', `shot-${i}.png`));
    await user.upload(screen.getByLabelText('Evidence (up to 5 screenshots)'), six);
    expect(await screen.findByText('At most 5 more images can be added')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Remove shot-/ })).toHaveLength(5);
    expect(screen.getByLabelText('Evidence (up to 5 screenshots)')).toBeDisabled();
  });

  it('hands a valid report with its shrunk images, in order, to the caller', async () => {
    shrinksTo(500_000);
    const { onSubmit, user } = setup();
    await user.upload(screen.getByLabelText('Evidence (up to 5 screenshots)'), [
      image(1_300_000, 'image/png', 'a.png'),
      image(900_000, 'image/png', 'b.png'),
    ]);
    await screen.findAllByRole('button', { name: /^Remove / });
    await user.type(screen.getByLabelText('Reported account'), '0917 123 4567');
    await user.type(screen.getByLabelText('Incident description'), 'They asked for a fee.');
    await user.type(screen.getByLabelText('Amount lost in pesos (optional)'), '1,500.50');
    await user.click(screen.getByRole('radio', { name: 'yes' }));
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const values = onSubmit.mock.calls[0][0];
    expect(values).toMatchObject({
      reportedAccountType: 'mobile',
      reportedAccount: '0917 123 4567',
      consentToContact: 'yes',
      incidentType: 'scam',
      amountLost: '1,500.50',
      incidentDate: todayISO(),
    });
    expect(values.evidence.map((f: File) => [f.name, f.size, f.type])).toEqual([
      ['a.webp', 500_000, 'image/webp'],
      ['b.webp', 500_000, 'image/webp'],
    ]);
  });
});

describe('todayISO', () => {
  it("is the user's own calendar day", () => {
    expect(todayISO(new Date(2026, 10, 22, 23, 59))).toBe('2026-11-22');
    expect(todayISO(new Date(2027, 0, 1, 0, 0))).toBe('2027-01-01');
  });
});
