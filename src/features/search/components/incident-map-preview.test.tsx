import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { IncidentMapPreview, visibleLandPath } from './incident-map-preview';

const WHOLE_WORLD = { x: -1e6, y: -1e6, width: 2e6, height: 2e6 };

/** Every M/L point of a path, as [x, y]. */
const pathPoints = (d: string) => [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [+m[1], +m[2]]);

describe('IncidentMapPreview', () => {
  it('draws only the land that can show: each ring it keeps touches the view box', () => {
    const { container } = render(<IncidentMapPreview points={[[14.6, 121.0]]} />);
    const svg = container.querySelector('svg')!;
    const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number);
    const d = container.querySelector('path')!.getAttribute('d')!;
    const rings = d.split('Z').filter(Boolean);
    expect(rings.length).toBeGreaterThan(0);
    for (const ring of rings) {
      const pts = pathPoints(ring);
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      expect(Math.max(...xs)).toBeGreaterThanOrEqual(x - 0.1);
      expect(Math.min(...xs)).toBeLessThanOrEqual(x + w + 0.1);
      expect(Math.max(...ys)).toBeGreaterThanOrEqual(y - 0.1);
      expect(Math.min(...ys)).toBeLessThanOrEqual(y + h + 0.1);
    }
    // A small part of the world's coastline, not all of it.
    expect(d.length).toBeLessThan(visibleLandPath(WHOLE_WORLD).length / 4);
  });

  it('keeps every ring with a point inside the view box (nothing visible is dropped)', () => {
    const view = { x: 2900, y: 1550, width: 1000, height: 600 };
    const kept = new Set(visibleLandPath(view).split('Z').filter(Boolean));
    const inside = visibleLandPath(WHOLE_WORLD)
      .split('Z')
      .filter(Boolean)
      .filter((ring) =>
        pathPoints(ring).some(
          ([px, py]) =>
            px >= view.x && px <= view.x + view.width && py >= view.y && py <= view.y + view.height,
        ),
      );
    expect(inside.length).toBeGreaterThan(0);
    for (const ring of inside) expect(kept.has(ring)).toBe(true);
  });
});
