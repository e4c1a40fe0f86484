import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import type { CheckedItem } from '@/lib/check-message';
import { useCheckMessage } from '@/features/check/api/check-message';
import { CheckForm } from '@/features/check/components/check-form';
import { CheckResults } from '@/features/check/components/check-results';
import { ImagePicker } from '@/features/check/components/image-picker';
import {
  ImageText,
  UnreadableVerdict,
  unreadable,
  type ImageOrigin,
} from '@/features/check/components/image-text';
import { takeSharedImage } from '@/features/check/ocr/shared-image';

/**
 * The message carried to /check: the page state (from the home page's search box), or the query
 * string (?text=, and title/url as Android's share sheet sends them to the Web Share Target).
 */
export function messageFrom(state: unknown, params: URLSearchParams): string {
  const fromState = (state as { text?: unknown } | null)?.text;
  if (typeof fromState === 'string') return fromState;
  const parts = ['title', 'text', 'url'].map((k) => params.get(k)?.trim() ?? '').filter(Boolean);
  return [...new Set(parts)].join('\n');
}

/** The reading of an image the message came from, if it did (page state, kept while the text is edited). */
function imageOriginFrom(state: unknown): ImageOrigin | undefined {
  const origin = (state as { fromImage?: unknown } | null)?.fromImage as Partial<ImageOrigin> | undefined;
  return typeof origin?.text === 'string' && typeof origin.confidence === 'number'
    ? { text: origin.text, confidence: origin.confidence }
    : undefined;
}

/** An image the phone's share sheet sent (?shared=image): the service worker kept it for the page. */
function useSharedImage(wanted: boolean): Blob | undefined {
  const [image, setImage] = useState<Blob>();
  useEffect(() => {
    if (!wanted) return;
    // No "still mounted" guard: the image is taken from the cache once, and React's development
    // double-run of effects would otherwise drop it (the second run finds the cache empty).
    void takeSharedImage().then((blob) => {
      if (blob) setImage(blob);
    });
  }, [wanted]);
  return image;
}

function Check({ text, fromImage }: { text: string; fromImage?: ImageOrigin }) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const check = useCheckMessage(text);

  function report(item: CheckedItem) {
    if (!user) {
      // Back to this same check after logging in (the message travels in the address, not stored).
      navigate(paths.auth.login.getHref(paths.check.getHref(text)));
      return;
    }
    navigate(paths.dashboard.addReport.getHref(), {
      state: {
        prefill: {
          reportedAccountType: item.type,
          reportedAccount: item.canonical,
          incidentDescription: text,
        },
      },
    });
  }

  if (check.error)
    return (
      <p role="alert" className="text-destructive">
        {t('check.failed', { message: errorMessage(check.error) })}
      </p>
    );
  if (!check.result)
    return (
      <div className="flex flex-col gap-4" role="status" aria-busy="true" aria-label={t('check.checking')}>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  const level = check.result.verdict.level;
  // An image whose text could not be read well never gets "No warning signs found" or "Nothing to check".
  const honest =
    fromImage && unreadable(fromImage) && (level === 'no-known-risk' || level === 'nothing-found') ? (
      <UnreadableVerdict />
    ) : undefined;
  return (
    <>
      {fromImage && <ImageText origin={fromImage} items={check.result.items} />}
      <CheckResults
        result={check.result}
        sent={check.sent}
        owners={check.owners}
        onReport={report}
        verdict={honest}
      />
    </>
  );
}

export function Component() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const text = messageFrom(location.state, params);
  const fromImage = imageOriginFrom(location.state);
  const shared = useSharedImage(params.get('shared') === 'image');

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{t('check.title')}</h1>
        <p className="text-muted-foreground">{t('check.lead')}</p>
      </header>
      <ImagePicker
        shared={shared}
        onRead={(reading) =>
          navigate(paths.check.getHref(), {
            state: { text: reading.text, fromImage: { text: reading.text, confidence: reading.confidence } },
          })
        }
      />
      <CheckForm
        key={text}
        defaultValue={text}
        onCheck={(message) => navigate(paths.check.getHref(), { state: { text: message, fromImage } })}
      />
      {text.trim() && <Check text={text} fromImage={fromImage} />}
    </div>
  );
}
