import { proxy } from 'valtio';
import { getResult } from '../api/http';
import { keepForScreen } from '../api/earlyReads';

/** The signed-in user as spec 3 "User state" lists it, filled by the page-entry flow. */
export interface UserInfo {
  user: {
    id: number;
    userAccount: string;
    userName: string;
    avatar: string | null;
    introduction: string | null;
    orgId: number;
  };
  organization: { id: number; name: string; isMainLab: number; isOnlyLab: number };
  roleList: { id: number; name: string; code: string; menuIds: string }[];
  permissionList: number[];
  disabledMenu: string;
  usePlace: boolean;
  definitionBarcodeRule: number;
  passwordFlag: number;
}

interface UserState {
  info: UserInfo | undefined;
  /** Role codes (admin, editor); empty until user info is loaded. */
  roles: string[];
  isOnlyLab: number | undefined;
  isMainLab: number | undefined;
  passwordFlag: number;
}

export const userState = proxy<UserState>({
  info: undefined,
  roles: [],
  isOnlyLab: undefined,
  isMainLab: undefined,
  passwordFlag: 0,
});

export const USER_INFO_URL = '/api/user/login';

export async function loadUserInfo(): Promise<UserInfo> {
  // Kept for the dashboard built next, which shows who is signed in (it would otherwise ask again at once).
  const info = await keepForScreen(USER_INFO_URL, getResult<UserInfo>(USER_INFO_URL));
  userState.info = info;
  userState.roles = [...new Set(info.roleList.map((r) => r.code))];
  userState.passwordFlag = info.passwordFlag;
  return info;
}

export async function loadLabType(): Promise<void> {
  const type = await getResult<{ isOnlyLab: number; isMainLab: number }>('/api/organization/getUserLabType');
  userState.isOnlyLab = type.isOnlyLab;
  userState.isMainLab = type.isMainLab;
}

export function resetUser() {
  userState.info = undefined;
  userState.roles = [];
  userState.isOnlyLab = undefined;
  userState.isMainLab = undefined;
  userState.passwordFlag = 0;
}
