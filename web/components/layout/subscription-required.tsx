import { Link } from "@tanstack/react-router";
import { CreditCard } from "lucide-react";
import type { PublicUser } from "../../../contract/auth";
import { PAGES } from "../../../contract/messages";
import { Button } from "@/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/card";
import { HeadingsFrom } from "@/components/ui/heading-level";
import { useLogout } from "@/features/auth/api";
import {
  PAYMENT_BANNER,
  SUBSCRIPTION_REQUIRED_PAST_DUE,
} from "@/features/billing/copy";
import { hasPaymentIssue } from "@/features/billing/payment-rules";
import { LapsedControls } from "./lapsed-controls";

/**
 * For signed-in users without an active subscription (seeds 000 §2, §6). An owner whose grace ran
 * out on an unpaid renewal is led to fix the payment rather than to choose a new plan.
 */
export function SubscriptionRequired({ user }: { user: PublicUser }) {
  const logout = useLogout();
  const pastDue = hasPaymentIssue(user);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <HeadingsFrom level={1}>
        <Card className="w-full max-w-md text-center">
          <CardHeader className="items-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700">
              <CreditCard aria-hidden />
            </span>
            <CardTitle className="text-2xl">
              {PAGES.subscriptionRequired}
            </CardTitle>
            <CardDescription>
              {pastDue
                ? SUBSCRIPTION_REQUIRED_PAST_DUE
                : "Your account does not have an active subscription. Choose a plan to use your vault, beneficiaries and triggers."}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 sm:flex-row sm:justify-center">
            {pastDue ? (
              <Button asChild>
                <Link to="/account">{PAYMENT_BANNER.action}</Link>
              </Button>
            ) : (
              <Button asChild>
                <Link to="/pricing">View Plans</Link>
              </Button>
            )}
            <Button
              variant="outline"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              Sign Out
            </Button>
          </CardContent>
          <CardContent>
            <LapsedControls />
          </CardContent>
        </Card>
      </HeadingsFrom>
    </main>
  );
}
