import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { ParseKeys } from 'i18next';
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
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { Button } from '@/components/ui/button';
import { ImageFormField } from '@/components/image-file-input';
import { SubmitButton } from '@/components/submit-button';
import { newsFormSchema, type NewsFormInput, type NewsFormValues } from '../api/news-form-schema';

const empty: NewsFormValues = {
  newsTitle: '',
  newsDescription: '',
  tags: '',
  imgURL: '',
  source: '',
  sourceDesc: '',
  newsBanner: undefined,
  removeBanner: false,
};

type TextField = Exclude<keyof NewsFormValues, 'newsBanner' | 'newsDescription' | 'removeBanner'>;
const textFields: {
  name: TextField;
  label: ParseKeys;
  placeholder?: ParseKeys;
  description?: ParseKeys;
}[] = [
  { name: 'newsTitle', label: 'news.form.title' },
  {
    name: 'tags',
    label: 'news.form.tags',
    placeholder: 'news.form.tagsPlaceholder',
    description: 'news.form.tagsDescription',
  },
  {
    name: 'imgURL',
    label: 'news.form.imageUrl',
    placeholder: 'news.form.urlPlaceholder',
    description: 'news.form.imageUrlDescription',
  },
  { name: 'source', label: 'news.form.source', placeholder: 'news.form.urlPlaceholder' },
  { name: 'sourceDesc', label: 'news.form.sourceName', placeholder: 'news.form.sourceNamePlaceholder' },
];

interface NewsFormProps {
  onSubmit: (values: NewsFormInput, reset: () => void) => void;
  isPending: boolean;
  /** An existing article's values: the form edits it instead of adding a new one. */
  editing?: { values: NewsFormValues; hasBanner: boolean };
  /** Leaves edit mode without saving. */
  onCancel?: () => void;
}

/** The Add News form (docs/behaviour.md §2), also used to edit an article: the same fields, filled in. */
export function NewsForm({ onSubmit, isPending, editing, onCancel }: NewsFormProps) {
  const { t } = useTranslation();
  const form = useForm<NewsFormValues, unknown, NewsFormInput>({
    resolver: zodResolver(newsFormSchema),
    defaultValues: editing?.values ?? empty,
  });
  const isEditing = !!editing;
  // A new banner replaces the current one, so "remove" only applies without one.
  const newBanner = useWatch({ control: form.control, name: 'newsBanner' });
  // Edit is chosen further down the page: bring the form into view and the cursor into its first field.
  useEffect(() => {
    if (isEditing) form.setFocus('newsTitle', { shouldSelect: false });
  }, [isEditing, form]);
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={isEditing ? t('news.form.editLabel') : t('news.form.addLabel')}
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset(empty)))}
        className="grid grid-cols-1 gap-6 md:grid-cols-2"
      >
        {textFields.map(({ name, label, placeholder, description }) => (
          <FormField
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <FormItem className={name === 'newsTitle' ? 'md:col-span-2' : undefined}>
                <FormLabel>{t(label)}</FormLabel>
                <FormControl>
                  <Input placeholder={placeholder && t(placeholder)} {...field} value={field.value ?? ''} />
                </FormControl>
                {description && <FormDescription>{t(description)}</FormDescription>}
                <FormMessage />
              </FormItem>
            )}
          />
        ))}
        <ImageFormField
          control={form.control}
          name="newsBanner"
          label={isEditing ? t('news.form.newBanner') : t('news.form.banner')}
          hint={editing?.hasBanner && t('news.form.keepBannerHint')}
        />
        {editing?.hasBanner && (
          <FormField
            control={form.control}
            name="removeBanner"
            render={({ field }) => (
              <FormItem className="flex flex-row items-center gap-2 self-center">
                <FormControl>
                  <Checkbox
                    checked={!!field.value && !newBanner}
                    disabled={!!newBanner}
                    onCheckedChange={(checked) => field.onChange(checked === true)}
                  />
                </FormControl>
                <FormLabel className="font-normal">{t('news.form.removeBanner')}</FormLabel>
              </FormItem>
            )}
          />
        )}
        <FormField
          control={form.control}
          name="newsDescription"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>{t('news.form.article')}</FormLabel>
              <FormControl>
                <Textarea rows={8} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-col gap-2 sm:flex-row md:col-span-2">
          <SubmitButton isPending={isPending} className="w-full sm:w-40" />
          {onCancel && (
            <Button
              type="button"
              variant="outline"
              className="w-full sm:w-40"
              onClick={onCancel}
              disabled={isPending}
            >
              {t('news.form.cancel')}
            </Button>
          )}
        </div>
      </form>
    </Form>
  );
}
