import { env } from '@/config/env';
import { API_BASE } from '@/config/api';

/** The public Storage bucket the `open-data` job writes the TLP:CLEAR feeds into (docs/feeds.md). */
export const FEEDS_BUCKET = 'feeds';

/** Where the public feed files are: stable addresses, rewritten by every run. */
export const FEEDS_BASE = `${env.VITE_SUPABASE_URL}/storage/v1/object/public/${FEEDS_BUCKET}/clear`;

export const feedFiles = {
  csv: `${FEEDS_BASE}/indicators.csv`,
  json: `${FEEDS_BASE}/indicators.json`,
  list: `${FEEDS_BASE}/list.txt`,
  misp: `${FEEDS_BASE}/misp`,
  mispManifest: `${FEEDS_BASE}/misp/manifest.json`,
  stixIndex: `${FEEDS_BASE}/stix/index.json`,
};

/** The TAXII 2.1 server (the api function): discovery, and the one collection. */
export const TAXII_COLLECTION_ID = '0d5e2a8c-6f1b-4c8e-9a37-2b6f1e4d9c51';
export const taxiiUrls = {
  discovery: `${API_BASE}/taxii2/`,
  collection: `${API_BASE}/taxii2/scamcheck/collections/${TAXII_COLLECTION_ID}/`,
};

/** The partner (TLP:AMBER) files, for partner API keys only. */
export const PARTNER_BASE = `${API_BASE}/feeds/partner`;
