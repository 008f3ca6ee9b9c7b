/** The Activity page's filter choices: each a label over the audit actions the server writes. */
export const ACTIVITY_FILTERS: { label: string; actions: string[] }[] = [
  {
    label: "Membership and roles",
    actions: [
      "team.member_remove",
      "team.member_role",
      "team.leave",
      "team.invite_accept",
      "team.invite_decline",
      "team.join_approve",
      "team.join_deny",
      "team.domain_join",
      "team.transfer",
    ],
  },
  { label: "Invitations", actions: ["team.invite", "team.invite_resend", "team.invite_revoke"] },
  { label: "Seats", actions: ["team.seats"] },
  {
    label: "Billing",
    actions: [
      "team.checkout",
      "team.over_seats",
      "team.seats",
      "team.interval",
      "team.billing_details",
      "team.cancel",
      "team.resume",
      "team.invoice",
      "team.trial_will_end",
    ],
  },
  {
    label: "Event streams",
    actions: [
      "team.stream_create",
      "team.stream_delete",
      "team.stream_pause",
      "team.stream_replay",
      "team.stream_retry",
      "team.stream_secret_rotate",
    ],
  },
  { label: "Policy and second factor", actions: ["team.policy", "team.mfa_policy"] },
  {
    label: "Domains",
    actions: ["team.domain_add", "team.domain_verify", "team.domain_unverify", "team.domain_remove", "team.domain_disable"],
  },
  {
    label: "Single sign-on",
    actions: [
      "team.sso.save",
      "team.sso.delete",
      "team.sso.disable",
      "team.sso.metadata_refresh",
      "team.sso.metadata_failed",
      "team.setup_link_created",
      "team.setup_link_revoked",
      "team.setup_link_finished",
    ],
  },
  {
    label: "SCIM provisioning",
    actions: [
      "team.scim.token_create",
      "team.scim.token_revoke",
      "team.scim.member_add",
      "team.scim.member_remove",
      "team.scim.invite",
      "team.scim.disable",
    ],
  },
  { label: "The team", actions: ["team.create", "team.rename", "team.delete", "team.seed"] },
];
