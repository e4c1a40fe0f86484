/**
 * Reports per region of the Philippines on a deck.gl map that needs no tiles, key or internet: the
 * land comes from world-atlas (Natural Earth 1:50m, shipped in the npm package, only the Philippines
 * kept), each region is a circle sized by its count. Loaded lazily with the statistics page; the
 * table beside it carries the same figures for screen readers.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import DeckGL from '@deck.gl/react';
import { GeoJsonLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import countries50m from 'world-atlas/countries-50m.json';
import { formatNumber } from '@/lib/format';
import type { PublicStatistics } from '../api/get-public-statistics';

type Region = PublicStatistics['regions'][number];

const topology = countries50m as unknown as Topology<{ countries: GeometryCollection }>;
const all = feature(topology, topology.objects.countries) as FeatureCollection;
/** ISO 3166-1 numeric 608 is the Philippines. */
const philippines: FeatureCollection = {
  type: 'FeatureCollection',
  features: all.features.filter((f) => f.id === '608'),
};

const VIEW = { latitude: 12.3, longitude: 122.4, zoom: 4.3, pitch: 0, bearing: 0 };

const PALETTE = {
  light: {
    land: [226, 232, 240, 255],
    border: [148, 163, 184, 255],
    dot: [234, 88, 12, 200],
    few: [148, 163, 184, 160],
    text: [15, 23, 42, 255],
  },
  dark: {
    land: [38, 46, 61, 255],
    border: [70, 82, 102, 255],
    dot: [251, 146, 60, 210],
    few: [100, 116, 139, 170],
    text: [226, 232, 240, 255],
  },
} as const;

export function RegionsMap({ regions, dark }: { regions: Region[]; dark: boolean }) {
  const { t } = useTranslation();
  const colors = dark ? PALETTE.dark : PALETTE.light;
  const max = Math.max(1, ...regions.map((r) => r.count ?? 0));
  const layers = useMemo(
    () => [
      new GeoJsonLayer({
        id: 'philippines',
        data: philippines,
        filled: true,
        stroked: true,
        getFillColor: [...colors.land] as [number, number, number, number],
        getLineColor: [...colors.border] as [number, number, number, number],
        lineWidthMinPixels: 0.5,
      }),
      new ScatterplotLayer<Region>({
        id: 'regions',
        data: regions.filter((r) => r.fewer_than_5 || (r.count ?? 0) > 0),
        getPosition: (r) => [r.lng, r.lat],
        // Area proportional to the count; regions under 5 get one small grey dot, whatever their count.
        getRadius: (r) => (r.fewer_than_5 ? 4 : 5 + 25 * Math.sqrt((r.count ?? 0) / max)),
        radiusUnits: 'pixels',
        getFillColor: (r) =>
          [...(r.fewer_than_5 ? colors.few : colors.dot)] as [number, number, number, number],
        stroked: true,
        getLineColor: [255, 255, 255, 200],
        lineWidthMinPixels: 1,
        updateTriggers: { getFillColor: [dark], getRadius: [max] },
      }),
      new TextLayer<Region>({
        id: 'labels',
        data: regions.filter((r) => (r.count ?? 0) > 0),
        getPosition: (r) => [r.lng, r.lat],
        getText: (r) => formatNumber(r.count ?? 0),
        getSize: 11,
        getColor: [...colors.text] as [number, number, number, number],
        getPixelOffset: [0, -18],
        fontWeight: 600,
        updateTriggers: { getColor: [dark] },
      }),
    ],
    [regions, colors, dark, max],
  );
  return (
    <div
      className="relative h-[420px] w-full overflow-hidden rounded-lg border"
      role="img"
      aria-label={t('statistics.regions.map')}
      data-testid="regions-map"
    >
      <DeckGL
        initialViewState={VIEW}
        controller={{ scrollZoom: false }}
        layers={layers}
        style={{ position: 'absolute', inset: '0' }}
      />
    </div>
  );
}
