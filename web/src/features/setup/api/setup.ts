//! The setup link's page as a query and `useMutation` hooks over `/api/setup/{token}/…`: no session,
//! the token is the credential. Every change reads the page's view again; a change refused because the
//! link is gone (`410`) reads it too, so the page turns into the gone page.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  addSetupDomain,
  createSetupScimToken,
  finishSetup,
  getSetup,
  saveSetupSso,
  type SetupSsoRequest,
  startSetupTest,
  verifySetupDomain,
} from "../../../lib/api/setupLinks";

/** The sessionStorage key that keeps the token while the browser is at the identity provider. */
export const SETUP_TOKEN_KEY = "cw_setup_token";

export const setupKey = (token: string) => ["setup-link", token] as const;

export function useSetupView(token: string) {
  return useQuery({ queryKey: setupKey(token), queryFn: () => getSetup(token), retry: false });
}

function useSetupMutation<A, R>(token: string, call: (token: string, arg: A) => Promise<R>) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: setupKey(token) });
  return useMutation({ mutationFn: (arg: A) => call(token, arg), onSuccess: refresh, onError: refresh });
}

export const useAddDomain = (token: string) => useSetupMutation(token, addSetupDomain);
export const useVerifyDomain = (token: string) => useSetupMutation(token, verifySetupDomain);
export const useSaveSso = (token: string) => useSetupMutation(token, (t, body: SetupSsoRequest) => saveSetupSso(t, body));
export const useCreateScimToken = (token: string) => useSetupMutation(token, createSetupScimToken);
/** Finishes: the view is not read again (it answers 410 from now on); the page shows it is done. */
export const useFinish = (token: string) => useMutation({ mutationFn: () => finishSetup(token) });

/** Starts the test sign-in: keeps the token for the way back (`/setup`), then leaves for the provider. */
export function useStartTest(token: string) {
  return useMutation({
    mutationFn: async (email: string) => {
      const { authorization_url } = await startSetupTest(token, email);
      window.sessionStorage.setItem(SETUP_TOKEN_KEY, token);
      window.location.assign(authorization_url);
    },
  });
}
