/**
 * docs/behaviour.md §9: default zoom 2.8, heat radius 5; shared by the SVG preview and the interactive
 * map so both show the same place at the same scale.
 */
export const HEATMAP_ZOOM = 2.8;
export const HEATMAP_RADIUS_PIXELS = 5;

/** Where the map opens when no report has a location: the Philippines. */
export const PHILIPPINES = { latitude: 12.8797, longitude: 121.774 };

/** A dark map style: near-black sea, dark-grey land, faint borders. */
export const SEA = 'rgb(11, 18, 32)';
