import { useGetEstimateInsightsQuery } from '@time-wallet/api/time-entries';
import { Button } from '@time-wallet/shared-ui';
import { estimateOffer } from '../../lib/estimate-offer';
import styles from './estimate-hint.module.css';

/**
 * Offers the estimate a category's recent tasks suggest ('Your Work tasks took 1.4× their estimates lately: plan 84
 * min?') with a button that takes it; never applied by itself. Loaded, with its call, only once a task form has an
 * estimate typed for a task with a category.
 */
export default function EstimateHint({
  categoryId,
  categoryName,
  typedMinutes,
  onTake,
}: {
  categoryId: string;
  categoryName: string;
  typedMinutes: number;
  onTake: (minutes: number) => void;
}) {
  const { data } = useGetEstimateInsightsQuery({ weeks: 8 });
  const offer = data ? estimateOffer(data.categories, categoryId, typedMinutes) : null;
  if (!offer) return null;
  return (
    <p className={styles.offer}>
      <span>
        Your {categoryName} tasks took {offer.ratio}× their estimates lately: plan {offer.minutes} min?
      </span>
      <Button variant="secondary" className={styles.take} onClick={() => onTake(offer.minutes)}>
        Plan {offer.minutes} min
      </Button>
    </p>
  );
}
