import { useForm, useWatch } from 'react-hook-form';
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

const accountPlaceholders: Record<AccountType, string> = {
  mobile: 'e.g. 0917 123 4567',
  email: 'e.g. scammer@example.com',
  ewallet: 'e.g. GCash 0917 123 4567 or a PayPal e-mail',
  crypto: 'e.g. 0x8f3c… or bc1q…',
  website: 'e.g. shop-example.com',
};

/**
 * The report form (docs/behaviour.md §2), for filing and for editing. The location of the victim is
 * not asked: the server works it out (see get-visitor-location.ts).
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
  const form = useForm<ReportFormValues, unknown, ReportFormInput>({
    resolver: zodResolver(reportFormSchema),
    defaultValues,
  });
  const accountType = useWatch({ control: form.control, name: 'reportedAccountType' });

  return (
    <Form {...form}>
      <form
        noValidate
        aria-label="Report form"
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset(defaultValues)))}
        className="grid grid-cols-1 gap-6 md:grid-cols-2"
      >
        <FormField
          control={form.control}
          name="incidentType"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>What happened?</FormLabel>
              <FormControl>
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  className="flex flex-wrap gap-4"
                  aria-label="Incident type"
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
              <FormLabel>Incident date</FormLabel>
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
              <FormLabel>Reported account type</FormLabel>
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
                    <SelectValue placeholder="Choose a type" />
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
              <FormLabel>Reported account</FormLabel>
              <FormControl>
                <Input
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={accountPlaceholders[accountType]}
                  {...field}
                />
              </FormControl>
              <FormDescription>
                The number, e-mail, e-wallet, wallet address or website the scammer used.
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="incidentDescription"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>Incident description</FormLabel>
              <FormControl>
                <Textarea
                  rows={5}
                  placeholder="What happened, when, and how they contacted you."
                  {...field}
                />
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
              <FormLabel>Location</FormLabel>
              <FormControl>
                <Input placeholder="e.g. Quezon City" autoComplete="address-level2" {...field} />
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
              <FormLabel>Amount lost in pesos (optional)</FormLabel>
              <FormControl>
                <Input inputMode="decimal" placeholder="e.g. 1500" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <ImageFormField
          control={form.control}
          name="evidence"
          label="Evidence (screenshot)"
          hint={hasEvidence && ' Leave empty to keep the current image.'}
        >
          {evidenceUrl && (
            <a href={evidenceUrl} target="_blank" rel="noopener noreferrer" className="w-fit">
              <img
                src={evidenceUrl}
                alt="Current evidence"
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
              <FormLabel>Have you Notified authorities yet?</FormLabel>
              <FormControl>
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  className="flex gap-6"
                  aria-label="Have you Notified authorities yet?"
                >
                  {(['yes', 'no'] as const).map((answer) => (
                    <div key={answer} className="flex items-center gap-2">
                      <RadioGroupItem value={answer} id={`consent-${answer}`} />
                      <Label htmlFor={`consent-${answer}`} className="font-normal capitalize">
                        {answer}
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
