// The query key /pricing's route prefetches: its own module, so the first load of every page
// carries this line and not the billing calls (web/features/billing/api.ts).
export const billingConfigKey = ['/api/billing/config'] as const
