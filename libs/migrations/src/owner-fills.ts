/**
 * The fills of the owners whose new tables a migration fills from existing rows (assets' recounts).
 * Loaded when such a migration runs, not when the list is: a service or CLI whose schema is current loads
 * no area for its migrations.
 */
export function assetFills(): Promise<typeof import('@dam/assets')> {
  return import('@dam/assets');
}
