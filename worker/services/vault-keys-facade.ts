import type { PassphraseChangeBody, RecoveryWrapBody } from '../../contract/vault'
import type { KeyMovePageBody, KeyMoveStartBody } from '../../contract/vault-key-move'
import { commitKeyMove, stageKeyMovePage, startKeyMove } from '../owner/vault-key-move'
import { type Account } from '../owner/account'
import { vaultUsage } from '../owner/usage'
import { settle } from '../owner/outcome'
import { addSigningKey, changePassphrase, setRecoveryCode, setUpVault, vaultKeysOf, type VaultSigningKey, type VaultSummary } from '../owner/vault-keys'
import { DomainFacade } from '../owner/host'

/** The vault's keys: set-up, recovery wrap, passphrase change, the move to a vault key, its summary. */
export class VaultKeysFacade extends DomainFacade {
  /** Sets up the vault once (its salt and passphrase check): a second time is a 409. */
  async setupVault(account: Account, salt: string, check: string, signing: VaultSigningKey, vaultKey: string, recovery?: RecoveryWrapBody) {
    return settle(() => this.h.act(account, (u) => setUpVault(this.h.storage, u, salt, check, signing, vaultKey, recovery)))
  }

  /** A new recovery code's wrap of the vault key, in place of the one before (which no longer opens it). */
  async setRecoveryCode(account: Account, body: RecoveryWrapBody) {
    return settle(() => this.h.act(account, (u) => setRecoveryCode(this.h.storage, u, body)))
  }

  async changePassphrase(account: Account, body: PassphraseChangeBody) {
    return settle(() => this.h.act(account, (u) => changePassphrase(this.h.storage, u, body)))
  }

  // The move of a format-1 vault to a vault key (worker/owner/vault-key-move.ts).
  async startKeyMove(account: Account, body: KeyMoveStartBody) {
    return settle(() => this.h.act(account, (u) => startKeyMove(this.h.storage, u, body)))
  }

  async stageKeyMovePage(account: Account, body: KeyMovePageBody) {
    return settle(() => this.h.act(account, (u) => stageKeyMovePage(this.h.storage, u, body)))
  }

  async commitKeyMove(account: Account) {
    return settle(() => this.h.act(account, (u) => commitKeyMove(this.h.storage, u)))
  }

  async addSigningKey(account: Account, signing: VaultSigningKey) {
    return settle(() => this.h.act(account, (u) => addSigningKey(this.h.storage, u, signing)))
  }

  /** What the account's public view shows of the vault (exact, unlike the directory's copy). */
  async vaultSummary(): Promise<VaultSummary> {
    const keys = vaultKeysOf(this.h.storage)
    const usage = vaultUsage(this.h.db, ['active'])
    return { keys: keys && { salt: keys.salt, check: keys.check, signing: keys.signing, vaultKey: keys.vaultKey, recovery: keys.recovery }, itemCount: usage.items, storageUsed: usage.bytes }
  }
}
