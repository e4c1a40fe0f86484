import { i18n } from '@/i18n';
import { duplicateReportOf } from './create-report';

/** The database's refusal of a second report on one identifier (reports_before_write, 409 PT409). */
const refusal = {
  code: 'PT409',
  message:
    'You already reported +639171234567 on November 3, 2026. Edit that report to add what happened instead of filing a new one.',
  details: 'existing_report_id=00000000-0000-4000-8000-000000000007',
};

describe('duplicateReportOf', () => {
  it('reads the existing report and keeps the server’s words in English', () => {
    expect(duplicateReportOf(refusal)).toEqual({
      message: refusal.message,
      reportId: '00000000-0000-4000-8000-000000000007',
    });
  });

  it('words the notice in Filipino for a Filipino reader, the account and date kept', async () => {
    await i18n.changeLanguage('fil');
    expect(duplicateReportOf(refusal)?.message).toBe(
      'Na-report mo na ang +639171234567 noong Nob 3, 2026. I-edit ang report na iyon para idagdag ang nangyari, sa halip na gumawa ng bago.',
    );
  });

  it('is not a duplicate without PT409 or without the existing report’s id', () => {
    expect(duplicateReportOf({ ...refusal, code: '23505' })).toBeNull();
    expect(duplicateReportOf({ ...refusal, details: 'no id here' })).toBeNull();
    expect(duplicateReportOf(null)).toBeNull();
  });
});
