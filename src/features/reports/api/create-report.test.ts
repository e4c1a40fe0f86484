import { i18n } from '@/i18n';
import { duplicateReportOf } from './create-report';

/** The database's refusal of a second report on one identifier (reports_refuse_duplicates, 409 PT409). */
const refusal = {
  code: 'PT409',
  message: 'Any English wording: the app reads the code in the hint.',
  details: 'existing_report_id=00000000-0000-4000-8000-000000000007',
  hint: JSON.stringify({
    code: 'report_duplicate',
    report_id: '00000000-0000-4000-8000-000000000007',
    account: '+639171234567',
    date: '2026-11-03',
  }),
};

describe('duplicateReportOf', () => {
  it('reads the existing report from the code, in the reader’s language', async () => {
    await i18n.changeLanguage('en');
    expect(duplicateReportOf(refusal)).toEqual({
      message:
        'You already reported +639171234567 on Nov 3, 2026. Edit that report to add what happened instead of filing a new one.',
      reportId: '00000000-0000-4000-8000-000000000007',
    });
  });

  it('words the notice in Filipino for a Filipino reader, the account and date kept', async () => {
    await i18n.changeLanguage('fil');
    expect(duplicateReportOf(refusal)?.message).toBe(
      'Na-report mo na ang +639171234567 noong Nob 3, 2026. I-edit ang report na iyon para idagdag ang nangyari, sa halip na gumawa ng bago.',
    );
  });

  it('is not a duplicate without its code or without the existing report’s id', () => {
    expect(duplicateReportOf({ ...refusal, hint: null })).toBeNull();
    expect(duplicateReportOf({ ...refusal, hint: '{"code": "report_duplicate"}' })).toBeNull();
    expect(duplicateReportOf({ ...refusal, hint: '{"code": "removal_open", "report_id": "x"}' })).toBeNull();
    expect(duplicateReportOf(null)).toBeNull();
  });
});
