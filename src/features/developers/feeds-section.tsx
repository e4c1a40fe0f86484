import { Trans, useTranslation } from 'react-i18next';
import { PARTNER_BASE, TAXII_COLLECTION_ID, feedFiles, taxiiUrls } from '@/features/developers/feeds';

/** The samples are code, file formats and commands: the same in every language. */
const samples = {
  csv: `################################################################
# ScamCheck verified scam identifiers (TLP:CLEAR)
# Last updated: 2026-11-27 15:05:12 (UTC)
# ...
################################################################
# id,date_added,kind,value,canonical,written,status,first_reported,last_reported,reporters,scam_type,brand,link
"1042","2026-11-27 15:05:12","domain","gcash-verify.xyz","gcash-verify.xyz","https://gcash-verify.xyz/login","verified","2026-11-20 08:00:00","2026-11-26 09:30:00","2","scam","GCash","https://scamcheck.ph/search/gcash-verify.xyz"
"1043","2026-11-27 15:05:12","url","https://bit.ly/gcash-promo","bit.ly/gcash-promo","bit.ly/gcash-promo","verified","2026-11-21 01:00:00","2026-11-21 01:00:00","1","scam","","https://scamcheck.ph/search/bit.ly%2Fgcash-promo"`,
  mailFilter: `# Hourly (cron): download only when the list changed (ETag)
curl -sf --etag-compare scamcheck.etag --etag-save scamcheck.etag \\
  -o scamcheck.txt ${feedFiles.list}
grep -v '^#' scamcheck.txt | grep -v '://' > /etc/rspamd/local.d/scamcheck-domains.map
grep '://' scamcheck.txt > /etc/rspamd/local.d/scamcheck-urls.map

# /etc/rspamd/local.d/multimap.conf
SCAMCHECK_DOMAIN { type = "url"; map = "/etc/rspamd/local.d/scamcheck-domains.map"; score = 8.0; }
SCAMCHECK_URL { type = "url"; filter = "full"; map = "/etc/rspamd/local.d/scamcheck-urls.map"; score = 8.0; }`,
  misp: `Sync Actions > Feeds > Add Feed
  Name:          ScamCheck verified scams (TLP:CLEAR)
  Provider:      ScamCheck
  Input source:  Network
  URL:           ${feedFiles.misp}
  Source format: MISP Feed
  Enabled:       yes (then "Fetch and store all feed data")`,
  mispPartner: `  URL:           ${PARTNER_BASE}/misp
  Headers:       X-API-Key: sck_...`,
  taxiiCurl: `curl -H 'Accept: application/taxii+json;version=2.1' ${taxiiUrls.discovery}
curl -H 'Accept: application/taxii+json;version=2.1' \\
  '${taxiiUrls.collection}objects/?limit=1000&added_after=2026-11-27T00:00:00.000Z'`,
  taxiiPython: `from taxii2client.v21 import Collection, as_pages

collection = Collection("${taxiiUrls.collection}")
for envelope in as_pages(collection.get_objects, per_request=1000,
                         added_after="2026-11-27T00:00:00.000Z"):
    for obj in envelope.get("objects", []):
        if obj["type"] == "indicator":
            print(obj["pattern"], obj.get("revoked", False))`,
  stix: `[domain-name:value = 'gcash-verify.xyz']
[url:value = 'https://bit.ly/gcash-promo']
[scamcheck-identifier:kind = 'phone' AND scamcheck-identifier:value = '+639171234567']`,
  partner: `curl -H "X-API-Key: sck_..." -o partner.csv ${PARTNER_BASE}/indicators.csv
curl -H "X-API-Key: sck_..." ${PARTNER_BASE}/stix/index.json`,
};

function Code({ children }: { children: string }) {
  return (
    <pre className="bg-muted rounded-md break-all whitespace-pre-wrap p-3 font-mono text-xs leading-relaxed sm:text-sm">
      <code>{children}</code>
    </pre>
  );
}

/** The /developers section on the threat-intelligence feeds (issue 34, docs/feeds.md). */
export function FeedsSection() {
  const { t } = useTranslation();
  const code = <code />;
  return (
    <section aria-labelledby="feeds" className="flex flex-col gap-4">
      <h2 id="feeds">{t('developers.feeds.title')}</h2>
      <p>{t('developers.feeds.intro')}</p>
      <ul>
        <li>
          <Trans i18nKey="developers.feeds.public" components={{ code }} />
        </li>
        <li>
          <Trans i18nKey="developers.feeds.partnerShort" components={{ code }} />
        </li>
        <li>{t('developers.feeds.shared')}</li>
        <li>
          <Trans i18nKey="developers.feeds.caching" components={{ code }} />
        </li>
      </ul>

      <h3>{t('developers.feeds.filesTitle')}</h3>
      <ul>
        <li>
          <Trans
            i18nKey="developers.feeds.csv"
            components={{ file: <a href={feedFiles.csv} className="break-all" />, code }}
          />
        </li>
        <li>
          <Trans
            i18nKey="developers.feeds.json"
            components={{ file: <a href={feedFiles.json} className="break-all" /> }}
          />
        </li>
        <li>
          <Trans
            i18nKey="developers.feeds.list"
            components={{ file: <a href={feedFiles.list} className="break-all" /> }}
          />
        </li>
        <li>
          <Trans
            i18nKey="developers.feeds.misp"
            components={{ file: <a href={feedFiles.mispManifest} className="break-all" />, code }}
          />
        </li>
        <li>
          <Trans
            i18nKey="developers.feeds.stix"
            components={{ file: <a href={feedFiles.stixIndex} className="break-all" />, code }}
          />
        </li>
      </ul>
      <p>
        <Trans i18nKey="developers.feeds.fields" components={{ code }} />
      </p>
      <Code>{samples.csv}</Code>

      <h3>{t('developers.feeds.mailTitle')}</h3>
      <p>{t('developers.feeds.mailText')}</p>
      <Code>{samples.mailFilter}</Code>

      <h3>{t('developers.feeds.mispTitle')}</h3>
      <p>{t('developers.feeds.mispText')}</p>
      <Code>{samples.misp}</Code>
      <p>{t('developers.feeds.mispPartner')}</p>
      <Code>{samples.mispPartner}</Code>

      <h3>{t('developers.feeds.taxiiTitle')}</h3>
      <p>
        <Trans
          i18nKey="developers.feeds.taxiiText"
          values={{ id: TAXII_COLLECTION_ID }}
          components={{ code, discovery: <a href={taxiiUrls.discovery} className="break-all" /> }}
        />
      </p>
      <Code>{samples.taxiiCurl}</Code>
      <p>{t('developers.feeds.taxiiPython')}</p>
      <Code>{samples.taxiiPython}</Code>

      <h3 id="feeds-stix">{t('developers.feeds.stixTitle')}</h3>
      <p>
        <Trans i18nKey="developers.feeds.stixText" components={{ code }} />
      </p>
      <Code>{samples.stix}</Code>

      <h3 id="feeds-partner">{t('developers.feeds.partnerTitle')}</h3>
      <p>
        <Trans i18nKey="developers.feeds.partnerText" components={{ code }} />
      </p>
      <Code>{samples.partner}</Code>
      <p>{t('developers.feeds.partnerTerms')}</p>
    </section>
  );
}
