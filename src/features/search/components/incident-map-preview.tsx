import { useMemo } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection, Geometry, Position } from 'geojson';
import countries110m from 'world-atlas/countries-110m.json';
import { HEATMAP_ZOOM, PHILIPPINES, SEA } from './heatmap-style';

/**
 * The heatmap's light first rendering: the same offline basemap and points drawn once as SVG, in Web
 * Mercator at the interactive map's zoom, with no WebGL and no deck.gl. It costs a few milliseconds, so
 * the results stay interactive on low-end phones; the interactive map loads only when asked for.
 */
const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
const world = feature(topology, topology.objects.countries) as FeatureCollection;

/** deck.gl's world size at zoom z is 512 * 2^z pixels; the preview uses the same scale. */
const WORLD = 512 * 2 ** HEATMAP_ZOOM;
const VIEW_W = 1000;
const VIEW_H = 600;

function project(lng: number, lat: number): [number, number] {
  const phi = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
  return [
    ((lng + 180) / 360) * WORLD,
    ((1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2) * WORLD,
  ];
}

function ringPath(ring: Position[]): string {
  return (
    ring
      .map(
        ([lng, lat], i) =>
          `${i ? 'L' : 'M'}${project(lng, lat)
            .map((v) => v.toFixed(1))
            .join(',')}`,
      )
      .join('') + 'Z'
  );
}

/** One ring of land and its bounding box in map pixels. */
interface Ring {
  points: Position[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function polygons(g: Geometry | null): Position[][][] {
  if (g?.type === 'Polygon') return [g.coordinates];
  if (g?.type === 'MultiPolygon') return g.coordinates;
  return [];
}

/** Built once per page load; the projection is monotonic, so a box in degrees gives the box in pixels. */
let rings: Ring[] | undefined;

function landRings(): Ring[] {
  rings ??= world.features.flatMap((f) =>
    polygons(f.geometry).flatMap((polygon) =>
      polygon.map((points) => {
        let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
        for (const [lng, lat] of points) {
          west = Math.min(west, lng);
          east = Math.max(east, lng);
          south = Math.min(south, lat);
          north = Math.max(north, lat);
        }
        const [minX, minY] = project(west, north);
        const [maxX, maxY] = project(east, south);
        return { points, minX, minY, maxX, maxY };
      }),
    ),
  );
  return rings;
}

/**
 * The land inside the view box only: the preview shows about a tenth of the world, and drawing every
 * country (10,000 points, a 145 kB path) cost a long task on low-end phones. With `slice` the box is
 * the most that can show, so nothing visible is dropped.
 */
export function visibleLandPath(view: { x: number; y: number; width: number; height: number }): string {
  return landRings()
    .filter(
      (r) =>
        r.maxX >= view.x &&
        r.minX <= view.x + view.width &&
        r.maxY >= view.y &&
        r.minY <= view.y + view.height,
    )
    .map((r) => ringPath(r.points))
    .join('');
}

type Point = [lat: number, lng: number];

export function IncidentMapPreview({ points }: { points: Point[] }) {
  const center =
    points.length > 0
      ? {
          lat: points.reduce((s, p) => s + p[0], 0) / points.length,
          lng: points.reduce((s, p) => s + p[1], 0) / points.length,
        }
      : { lat: PHILIPPINES.latitude, lng: PHILIPPINES.longitude };
  const [cx, cy] = project(center.lng, center.lat);
  const view = { x: cx - VIEW_W / 2, y: cy - VIEW_H / 2, width: VIEW_W, height: VIEW_H };
  const land = useMemo(
    () => visibleLandPath({ x: cx - VIEW_W / 2, y: cy - VIEW_H / 2, width: VIEW_W, height: VIEW_H }),
    [cx, cy],
  );
  return (
    <svg
      viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
      preserveAspectRatio="xMidYMid slice"
      className="absolute inset-0 h-full w-full"
      style={{ background: SEA }}
      aria-hidden="true"
      data-testid="incident-map-preview"
    >
      <path d={land} fill="rgb(38, 46, 61)" stroke="rgb(70, 82, 102)" strokeWidth={0.6} />
      {points.map(([lat, lng], i) => {
        const [x, y] = project(lng, lat);
        return (
          <g key={i}>
            <circle cx={x} cy={y} r={9} fill="rgb(253, 141, 60)" fillOpacity={0.35} />
            <circle cx={x} cy={y} r={4} fill="rgb(240, 59, 32)" />
          </g>
        );
      })}
    </svg>
  );
}

export default IncidentMapPreview;
