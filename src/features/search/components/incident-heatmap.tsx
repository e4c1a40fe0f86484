import { useMemo } from 'react';
import DeckGL from '@deck.gl/react';
import { GeoJsonLayer } from '@deck.gl/layers';
import { HeatmapLayer } from '@deck.gl/aggregation-layers';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import countries110m from 'world-atlas/countries-110m.json';

/**
 * SPEC.md section 9: default zoom 2.8, heat radius 5. The basemap ships with the app (Natural Earth
 * 1:110m countries from world-atlas), so the map needs no tile server, no key and no internet.
 */
export const HEATMAP_ZOOM = 2.8;
export const HEATMAP_RADIUS_PIXELS = 5;

/** Where the map opens when no report has a location: the Philippines. */
const PHILIPPINES = { latitude: 12.8797, longitude: 121.774 };

const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
const world = feature(topology, topology.objects.countries) as FeatureCollection;

// A dark map style: near-black sea, dark-grey land, faint borders; the heat ramps from blue to red.
const SEA = 'rgb(11, 18, 32)';
const LAND: [number, number, number, number] = [38, 46, 61, 255];
const BORDER: [number, number, number, number] = [70, 82, 102, 255];
const HEAT_COLORS: [number, number, number][] = [
  [65, 182, 196],
  [127, 205, 187],
  [199, 233, 180],
  [254, 217, 118],
  [253, 141, 60],
  [240, 59, 32],
];

type Point = [lat: number, lng: number];

export function IncidentHeatmap({ points }: { points: Point[] }) {
  const initialViewState = useMemo(() => {
    const center =
      points.length > 0
        ? {
            latitude: points.reduce((s, p) => s + p[0], 0) / points.length,
            longitude: points.reduce((s, p) => s + p[1], 0) / points.length,
          }
        : PHILIPPINES;
    return { ...center, zoom: HEATMAP_ZOOM, pitch: 0, bearing: 0 };
  }, [points]);

  const layers = useMemo(
    () => [
      new GeoJsonLayer({
        id: 'world',
        data: world,
        filled: true,
        stroked: true,
        getFillColor: LAND,
        getLineColor: BORDER,
        lineWidthMinPixels: 0.5,
      }),
      new HeatmapLayer<Point>({
        id: 'incidents',
        data: points,
        getPosition: (p) => [p[1], p[0]],
        getWeight: 1,
        radiusPixels: HEATMAP_RADIUS_PIXELS,
        intensity: 2,
        threshold: 0.03,
        colorRange: HEAT_COLORS,
      }),
    ],
    [points],
  );

  return (
    <div
      role="img"
      aria-label={`Heatmap of ${points.length} reported incident location${points.length === 1 ? '' : 's'}`}
      data-testid="incident-heatmap"
      className="relative h-[60vh] w-full overflow-hidden rounded-xl border md:w-[70vw]"
      style={{ background: SEA }}
    >
      <DeckGL initialViewState={initialViewState} controller layers={layers} />
    </div>
  );
}

export default IncidentHeatmap;
