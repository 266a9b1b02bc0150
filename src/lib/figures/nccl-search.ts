/**
 * NCCL's channel duplication rule, from src/graph/search.cc, ncclTopoDupChannels (NCCL 2.30): a
 * graph's channels are doubled only when its per-channel intra-node bandwidth is at least 25 GB/s,
 * never for the NVLS pattern, and not when ccMin > 80 (compute capability above 8.0: Hopper, Blackwell) with bwIntra < 50 and more than
 * four channels.
 */
export const DUP_CHANNELS = {
  minBwIntraGBs: 25,
  newerThanAmpere: { ccMinAbove: 80, bwIntraBelowGBs: 50, channelsAbove: 4 },
} as const;

export function dupChannels(
  pattern: 'ring' | 'tree' | 'nvls',
  bwIntraGBs: number,
  ccMin: number,
  nChannels: number,
): boolean {
  if (nChannels === 0 || pattern === 'nvls' || bwIntraGBs < DUP_CHANNELS.minBwIntraGBs)
    return false;
  const b = DUP_CHANNELS.newerThanAmpere;
  return !(ccMin > b.ccMinAbove && bwIntraGBs < b.bwIntraBelowGBs && nChannels > b.channelsAbove);
}
