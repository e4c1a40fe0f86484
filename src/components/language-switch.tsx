import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LANGUAGE_NAMES } from '@/i18n';
import { useLanguage } from '@/i18n/use-language';
import { cn } from '@/lib/utils';

/**
 * The header's language switch. With two languages one button offers the other one, named in its own
 * language ('Filipino' to an English reader, 'English' to a Filipino one); the URL never changes.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const other = language === 'en' ? 'fil' : 'en';
  return (
    <Button
      variant="ghost"
      size="sm"
      className={cn('shrink-0 gap-1.5 px-2', className)}
      onClick={() => void setLanguage(other)}
      aria-label={t('language.switchTo', { language: LANGUAGE_NAMES[other] })}
      title={t('language.switchTo', { language: LANGUAGE_NAMES[other] })}
    >
      <Languages aria-hidden />
      <span lang={other}>
        {/* The full name where the header has room (phones, whose links fold away); from 768 px the links
            need the room (the header is never wider than 1152 px), and the icon with its label for assistive
            tech and its title is enough. */}
        <span className="hidden sm:inline md:hidden">{LANGUAGE_NAMES[other]}</span>
        <span className="sm:hidden">{other.toUpperCase()}</span>
      </span>
    </Button>
  );
}
