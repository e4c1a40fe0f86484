import { z } from 'zod';
import { identifierError } from '@/lib/identifiers';
import { optionalImageFile } from '@/lib/image-file';
import { ACCOUNT_TYPES, INCIDENT_TYPES, type ReportRow } from './types';

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Tomorrow as 'YYYY-MM-DD' (docs/behaviour.md §5: the incident date defaults to, and may not pass,
 * tomorrow). The database checks against its own (UTC) tomorrow, so the earlier of the user's local
 * tomorrow and UTC tomorrow is used: the form never offers a date the server would refuse.
 */
export function tomorrowISO(now: Date = new Date()): string {
  const local = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const localIso = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
  const utcIso = isoDate(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)));
  return localIso < utcIso ? localIso : utcIso;
}

/** The largest amount lost a report may give, in pesos (the database's reports_amount_cap). */
export const MAX_AMOUNT_LOST = 100_000_000;

/**
 * The Report form (docs/behaviour.md §3), for filing and editing; also the mutations' input type.
 * Messages are catalogue keys (src/i18n/locales), which the form's FormMessage translates.
 */
export const reportFormSchema = z
  .object({
    incidentDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'reports.validation.incidentDate')
      .refine((d) => d <= tomorrowISO(), 'reports.validation.dateTooLate'),
    incidentType: z.enum(INCIDENT_TYPES, { error: 'reports.validation.incidentType' }),
    reportedAccountType: z.enum(ACCOUNT_TYPES, { error: 'reports.validation.accountType' }),
    reportedAccount: z.string(),
    consentToContact: z.enum(['yes', 'no'], { error: 'reports.validation.consent' }),
    evidence: optionalImageFile,
    incidentDescription: z
      .string()
      .trim()
      .min(1, 'reports.validation.descriptionRequired')
      .max(5000, 'reports.validation.descriptionTooLong'),
    location: z.string().trim().max(200, 'reports.validation.locationTooLong'),
    amountLost: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || /^\d{1,12}(\.\d{1,2})?$/.test(v.replace(/,/g, '')),
        'reports.validation.amount',
      )
      // The database refuses more (issue 27): no honest report loses more than PHP 100,000,000.
      .refine(
        (v) => v === '' || Number(v.replace(/,/g, '')) <= MAX_AMOUNT_LOST,
        'reports.validation.amountTooLarge',
      ),
  })
  .superRefine((values, ctx) => {
    const message = identifierError(values.reportedAccountType, values.reportedAccount);
    if (message) ctx.addIssue({ code: 'custom', path: ['reportedAccount'], message });
  });

export type ReportFormValues = z.input<typeof reportFormSchema>;
export type ReportFormInput = z.output<typeof reportFormSchema>;

export function emptyReportForm(): ReportFormValues {
  return {
    incidentDate: tomorrowISO(),
    incidentType: 'scam',
    reportedAccountType: 'mobile',
    reportedAccount: '',
    consentToContact: 'no',
    evidence: undefined,
    incidentDescription: '',
    location: '',
    amountLost: '',
  };
}

export function reportToForm(report: ReportRow): ReportFormValues {
  return {
    incidentDate: report.incident_date,
    incidentType: report.incident_type,
    reportedAccountType: report.reported_account_type,
    reportedAccount: report.reported_account,
    consentToContact: report.consent_to_contact ? 'yes' : 'no',
    evidence: undefined,
    incidentDescription: report.incident_description ?? '',
    location: report.location ?? '',
    amountLost: report.amount_lost == null ? '' : String(report.amount_lost),
  };
}

/** The table's columns from the form's fields (camelCase in the form, snake_case in SQL). */
export function formToColumns(values: ReportFormInput) {
  const amount = values.amountLost.replace(/,/g, '');
  return {
    incident_date: values.incidentDate,
    incident_type: values.incidentType,
    reported_account_type: values.reportedAccountType,
    reported_account: values.reportedAccount.trim(),
    consent_to_contact: values.consentToContact === 'yes',
    incident_description: values.incidentDescription,
    location: values.location || null,
    amount_lost: amount === '' ? null : Number(amount),
  };
}
