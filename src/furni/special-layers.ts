// Layers whose look the visualization type decides rather than their own sprite: the guild colours
// (COLOR1/COLOR2) and the badge slot (BADGE). Both follow the Nitro client's visualizations
// (FurnitureGuildCustomizedVisualization, FurnitureBadgeDisplayVisualization), matched by layer tag.

/**
 * Guild furni (visualization `furniture_guild_customized`) tint the layers tagged COLOR1 / COLOR2 with
 * the owning group's two colours; with no group (a catalogue still) the client uses these defaults,
 * which keeps the two parts apart instead of drawing both white.
 */
export const GUILD_DEFAULT_COLORS: Readonly<Record<string, number>> = { COLOR1: 0xeeeeee, COLOR2: 0x4b4b4b };

export const BADGE_TAG = 'BADGE';

/**
 * Visualizations that put a badge image where the layer tagged BADGE is: the client asks for the
 * group's (guild furni) or the chosen badge's image by name instead of the layer's own sprite, and
 * draws nothing while it has none. `furniture_achievement_resolution` has no visualization in the
 * Nitro client; its data tags the badge slot the same way, so it is treated like a badge display.
 */
const BADGE_VISUALIZATIONS: ReadonlySet<string> = new Set([
  'furniture_badge_display',
  'furniture_guild_customized',
  'furniture_achievement_resolution',
]);

/**
 * Whether a layer is a badge slot. Its own sprite is only a placeholder (a white square, a frame) that
 * no client shows, and a published still or icon has no badge to put there: the layer is not drawn.
 */
export function isBadgeLayer(visualizationType: string, tag: string): boolean {
  return tag === BADGE_TAG && BADGE_VISUALIZATIONS.has(visualizationType);
}

/** The tint a guild item's tagged layer takes in a still (the client's default group colours), if any. */
export function guildTint(visualizationType: string, tag: string): number | undefined {
  return visualizationType === 'furniture_guild_customized' ? GUILD_DEFAULT_COLORS[tag] : undefined;
}

/**
 * Counters that show their state as digits: the layer tagged with a digit's place shows the frame of that
 * digit instead of its animation's frame (FurnitureScoreBoardVisualization.getFrameNumber: ones, tens,
 * hundreds and thousands of the state; FurnitureCounterClockVisualization.getFrameNumber: the state as
 * seconds, shown m:ss with seconds, ten seconds, minutes and ten minutes). The frame's offsets stay the
 * animation's. Undefined for any other layer.
 */
export function digitFrame(visualizationType: string, tag: string, state: number): number | undefined {
  const digit = (v: number) => Math.floor(v % 10);
  if (visualizationType === 'furniture_score_board') {
    switch (tag) {
      case 'ones_sprite':
        return digit(state);
      case 'tens_sprite':
        return digit(state / 10);
      case 'hundreds_sprite':
        return digit(state / 100);
      case 'thousands_sprite':
        return digit(state / 1000);
    }
  } else if (visualizationType === 'furniture_counter_clock') {
    switch (tag) {
      case 'seconds_sprite':
        return digit(state % 60);
      case 'ten_seconds_sprite':
        return Math.floor((state % 60) / 10);
      case 'minutes_sprite':
        return digit(state / 60);
      case 'ten_minutes_sprite':
        return digit(state / 60 / 10);
    }
  }
  return undefined;
}
