import userEvent from '@testing-library/user-event';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { emptyReportForm, tomorrowISO } from '../api/report-form-schema';
import { ReportForm } from './report-form';

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
  it('asks the authorities question and defaults the incident date to tomorrow, its maximum', () => {
    setup();
    expect(screen.getByText('Have you Notified authorities yet?')).toBeInTheDocument();
    const date = screen.getByLabelText('Incident date') as HTMLInputElement;
    expect(date.value).toBe(tomorrowISO());
    expect(date.max).toBe(tomorrowISO());
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

  it("refuses an image over 500000 bytes with 'Image size too large' and sends nothing", async () => {
    const { onSubmit, fetchSpy, user } = setup();
    await user.upload(screen.getByLabelText('Evidence (screenshot)'), image(500_001));
    expect(await screen.findByText('Image size too large')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Reported account'), '0917 123 4567');
    await user.type(screen.getByLabelText('Incident description'), 'They asked for a fee.');
    await user.click(screen.getByRole('button', { name: 'submit' }));
    await waitFor(() => expect(screen.getByText('Image size too large')).toBeInTheDocument());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('accepts only images as evidence', async () => {
    const { onSubmit, user } = setup();
    await user.upload(
      screen.getByLabelText('Evidence (screenshot)'),
      new File(['%PDF'], 'evidence.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText(/only jpeg, png, webp or gif images/i)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('hands a valid report with an image of exactly 500000 bytes to the caller', async () => {
    const { onSubmit, user } = setup();
    const file = image(500_000);
    await user.upload(screen.getByLabelText('Evidence (screenshot)'), file);
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
      incidentDate: tomorrowISO(),
    });
    expect(values.evidence).toBe(file);
  });
});

describe('tomorrowISO', () => {
  it('is the earlier of local and UTC tomorrow, so the server never refuses the default', () => {
    // 23:30 UTC on Nov 22 is Nov 23 in Manila; UTC tomorrow (Nov 23) is what the database allows.
    const late = new Date(Date.UTC(2026, 10, 22, 23, 30));
    expect(tomorrowISO(late) <= '2026-11-23').toBe(true);
    expect(tomorrowISO(new Date(Date.UTC(2026, 11, 31, 12)))).toBe('2027-01-01');
  });
});
