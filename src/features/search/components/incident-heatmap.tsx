import { useMemo } from 'react';
import DeckGL from '@deck.gl/react';
import { GeoJsonLayer } from '@deck.gl/layers';
import { HeatmapLayer } from '@deck.gl/aggregation-layers';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import countries110m from 'world-atlas/countries-110m.json';

import { HEATMAP_RADIUS_PIXELS, HEATMAP_ZOOM, PHILIPPINES, SEA } from './heatmap-style';

/**
 * The interactive heatmap (deck.gl, WebGL). The basemap ships with the app (Natural Earth 1:110m
 * countries from world-atlas), so the map needs no tile server, no key and no internet. It is loaded
 * only on demand: the results page first shows the SVG preview (incident-map-preview.tsx).
 */

const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
const world = feature(topology, topology.objects.countries) as FeatureCollection;

// Land and borders as in the preview; the heat ramps from blue to red.
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
    <div className="absolute inset-0" style={{ background: SEA }} data-testid="incident-heatmap-interactive">
      <DeckGL initialViewState={initialViewState} controller layers={layers} />
    </div>
  );
}

export default IncidentHeatmap;
