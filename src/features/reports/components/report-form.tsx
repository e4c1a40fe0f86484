import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { Label } from '@/components/ui/label';
import { SubmitButton } from '@/components/submit-button';
import { accountTypeLabel, incidentTypeLabel } from '@/lib/format';
import {
  reportFormSchema,
  tomorrowISO,
  type ReportFormInput,
  type ReportFormValues,
} from '../api/report-form-schema';
import { ACCOUNT_TYPES, INCIDENT_TYPES, type AccountType } from '../api/types';
import { ImageFormField } from '@/components/image-file-input';

const accountPlaceholders = {
  mobile: 'reports.form.accountPlaceholder.mobile',
  email: 'reports.form.accountPlaceholder.email',
  ewallet: 'reports.form.accountPlaceholder.ewallet',
  crypto: 'reports.form.accountPlaceholder.crypto',
  website: 'reports.form.accountPlaceholder.website',
} as const satisfies Record<AccountType, string>;

/**
 * The report form (docs/behaviour.md §2), for filing and for editing. The location of the victim is
 * not asked: the server works it out (see locate-report.ts).
 */
export function ReportForm({
  defaultValues,
  onSubmit,
  isPending,
  hasEvidence = false,
  evidenceUrl,
  submitLabel,
}: {
  defaultValues: ReportFormValues;
  onSubmit: (values: ReportFormInput, reset: () => void) => void;
  isPending: boolean;
  /** Editing a report that already has an evidence image: choosing none keeps it. */
  hasEvidence?: boolean;
  /** A link to the current evidence image, shown beside the file input when editing. */
  evidenceUrl?: string;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const form = useForm<ReportFormValues, unknown, ReportFormInput>({
    resolver: zodResolver(reportFormSchema),
    defaultValues,
  });
  const accountType = useWatch({ control: form.control, name: 'reportedAccountType' });

  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={t('reports.form.label')}
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset(defaultValues)))}
        className="grid grid-cols-1 gap-6 md:grid-cols-2"
      >
        <FormField
          control={form.control}
          name="incidentType"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>{t('reports.form.whatHappened')}</FormLabel>
              <FormControl>
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  className="flex flex-wrap gap-4"
                  aria-label={t('reports.form.incidentType')}
                >
                  {INCIDENT_TYPES.map((type) => (
                    <div key={type} className="flex items-center gap-2">
                      <RadioGroupItem value={type} id={`incident-${type}`} />
                      <Label htmlFor={`incident-${type}`} className="font-normal">
                        {incidentTypeLabel(type)}
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="incidentDate"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.form.incidentDate')}</FormLabel>
              <FormControl>
                <Input type="date" max={tomorrowISO()} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="reportedAccountType"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.form.accountType')}</FormLabel>
              <Select
                value={field.value}
                onValueChange={(value) => {
                  field.onChange(value);
                  // The account must match its type; re-check it once it has been typed.
                  if (form.getValues('reportedAccount')) void form.trigger('reportedAccount');
                }}
              >
                <FormControl>
                  <SelectTrigger className="w-full">
                    <SelectValue placeholder={t('reports.form.chooseType')} />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {ACCOUNT_TYPES.map((type) => (
                    <SelectItem key={type} value={type}>
                      {accountTypeLabel(type)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="reportedAccount"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>{t('reports.form.account')}</FormLabel>
              <FormControl>
                <Input
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={t(accountPlaceholders[accountType])}
                  {...field}
                />
              </FormControl>
              <FormDescription>{t('reports.form.accountHint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="incidentDescription"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>{t('reports.form.description')}</FormLabel>
              <FormControl>
                <Textarea rows={5} placeholder={t('reports.form.descriptionPlaceholder')} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="location"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.form.location')}</FormLabel>
              <FormControl>
                <Input
                  placeholder={t('reports.form.locationPlaceholder')}
                  autoComplete="address-level2"
                  {...field}
                />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="amountLost"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.form.amount')}</FormLabel>
              <FormControl>
                <Input inputMode="decimal" placeholder={t('reports.form.amountPlaceholder')} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <ImageFormField
          control={form.control}
          name="evidence"
          label={t('reports.form.evidence')}
          hint={hasEvidence && ` ${t('reports.form.keepEvidence')}`}
        >
          {evidenceUrl && (
            <a href={evidenceUrl} target="_blank" rel="noopener noreferrer" className="w-fit">
              <img
                src={evidenceUrl}
                alt={t('reports.form.currentEvidence')}
                className="max-h-32 rounded-md border object-contain"
              />
            </a>
          )}
        </ImageFormField>
        <FormField
          control={form.control}
          name="consentToContact"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.form.notified')}</FormLabel>
              <FormControl>
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  className="flex gap-6"
                  aria-label={t('reports.form.notified')}
                >
                  {(['yes', 'no'] as const).map((answer) => (
                    <div key={answer} className="flex items-center gap-2">
                      <RadioGroupItem value={answer} id={`consent-${answer}`} />
                      <Label htmlFor={`consent-${answer}`} className="font-normal capitalize">
                        {t(answer === 'yes' ? 'reports.form.yes' : 'reports.form.no')}
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="md:col-span-2">
          <SubmitButton isPending={isPending} label={submitLabel} className="w-full sm:w-40" />
        </div>
      </form>
    </Form>
  );
}
