import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@/i18n';
import { useLanguage } from '@/i18n/use-language';

/** The profile page's language choice; ProfileLanguageSync saves it in the profile for the e-mails. */
export function LanguageSetting() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 font-semibold">{t('profile.language.title')}</legend>
      <p className="text-muted-foreground text-sm">{t('profile.language.description')}</p>
      <RadioGroup
        value={language}
        onValueChange={(value) => {
          if (isLanguage(value)) void setLanguage(value);
        }}
        className="flex gap-6"
      >
        {LANGUAGES.map((lng) => (
          <div key={lng} className="flex items-center gap-2">
            <RadioGroupItem value={lng} id={`${id}-${lng}`} />
            <Label htmlFor={`${id}-${lng}`} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </Label>
          </div>
        ))}
      </RadioGroup>
    </fieldset>
  );
}
