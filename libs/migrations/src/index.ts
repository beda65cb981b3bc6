import { Foundation1732258800000 } from './1732258800000-foundation';
import { TreesAndAssets1732262400000 } from './1732262400000-trees-and-assets';
import { Attributes1732266000000 } from './1732266000000-attributes';
import { AssetAttributes1732269600000 } from './1732269600000-asset-attributes';
import { TempChunkedFiles1732273200000 } from './1732273200000-temp-chunked-files';
import { CheckoutLightboxes1732276800000 } from './1732276800000-checkout-lightboxes';
import { SearchIndex1732280400000 } from './1732280400000-search-index';
import { PublishingActions1732284000000 } from './1732284000000-publishing-actions';
import { AssetContent1732287600000 } from './1732287600000-asset-content';
import { AssetSortNumbers1732291200000 } from './1732291200000-asset-sort-numbers';
import { AssetContentPending1732294800000 } from './1732294800000-asset-content-pending';
import { CacheGenerations1732298400000 } from './1732298400000-cache-generations';
import { ObjectDeletions1732302000000 } from './1732302000000-object-deletions';
import { JobRuns1732305600000 } from './1732305600000-job-runs';
import { ResumableUploads1732310017000 } from './1732310017000-resumable-uploads';
import { DomainEvents1732311000000 } from './1732311000000-domain-events';
import { Webhooks1732311060000 } from './1732311060000-webhooks';
import { RateLimitCounters1732313000000 } from './1732313000000-rate-limit-counters';
import { AssetVersions1732314000000 } from './1732314000000-asset-versions';
import { SearchScaling1732316400000 } from './1732316400000-search-scaling';
import { AssetTallies1732320000000 } from './1732320000000-asset-tallies';
import { AssetFacetTallies1732323600000 } from './1732323600000-asset-facet-tallies';
import { SortNumbersByAttribute1732327200000 } from './1732327200000-sort-numbers-by-attribute';
import { AssetCategorySets1732330800000 } from './1732330800000-asset-category-sets';
import { AssetSortTexts1732334400000 } from './1732334400000-asset-sort-texts';
import { TrashedAssets1732338000000 } from './1732338000000-trashed-assets';
import { AuditEntries1732341600000 } from './1732341600000-audit-entries';
import { Sessions1732345200000 } from './1732345200000-sessions';
import { AssetContentDigests1732348800000 } from './1732348800000-asset-content-digests';
import { AuditTargetOptional1732352400000 } from './1732352400000-audit-target-optional';
import { Shares1732356000000 } from './1732356000000-shares';
import { RenditionTasks1732359600000 } from './1732359600000-rendition-tasks';
import { AssetWordTallies1732363200000 } from './1732363200000-asset-word-tallies';
import { TrashTally1732381200000 } from './1732381200000-trash-tally';
import { LightboxAddedMilliseconds1732388400000 } from './1732388400000-lightbox-added-milliseconds';
import { AssetWordFacetTallies1732395600000 } from './1732395600000-asset-word-facet-tallies';
import { AssetTypeTallies1732399200000 } from './1732399200000-asset-type-tallies';
import { SearchReindexAttributes1732402800000 } from './1732402800000-search-reindex-attributes';

/** Every migration, oldest first. Listed explicitly so Jest and the compiled build load the same set. */
export const MIGRATIONS = [
  Foundation1732258800000,
  TreesAndAssets1732262400000,
  Attributes1732266000000,
  AssetAttributes1732269600000,
  TempChunkedFiles1732273200000,
  CheckoutLightboxes1732276800000,
  SearchIndex1732280400000,
  PublishingActions1732284000000,
  AssetContent1732287600000,
  AssetSortNumbers1732291200000,
  AssetContentPending1732294800000,
  CacheGenerations1732298400000,
  ObjectDeletions1732302000000,
  JobRuns1732305600000,
  ResumableUploads1732310017000,
  DomainEvents1732311000000,
  Webhooks1732311060000,
  RateLimitCounters1732313000000,
  AssetVersions1732314000000,
  SearchScaling1732316400000,
  AssetTallies1732320000000,
  AssetFacetTallies1732323600000,
  SortNumbersByAttribute1732327200000,
  AssetCategorySets1732330800000,
  AssetSortTexts1732334400000,
  TrashedAssets1732338000000,
  AuditEntries1732341600000,
  Sessions1732345200000,
  AssetContentDigests1732348800000,
  AuditTargetOptional1732352400000,
  Shares1732356000000,
  RenditionTasks1732359600000,
  AssetWordTallies1732363200000,
  TrashTally1732381200000,
  LightboxAddedMilliseconds1732388400000,
  AssetWordFacetTallies1732395600000,
  AssetTypeTallies1732399200000,
  SearchReindexAttributes1732402800000,
];
