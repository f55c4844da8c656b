import journal from './meta/_journal.json';
import m0000 from './0000_owner_vault.sql';
import m0001 from './0001_approver_death_links.sql';
import m0002 from './0002_served_tickets.sql';
import m0003 from './0003_key_signatures.sql';
import m0004 from './0004_key_rotations.sql';
import m0005 from './0005_third_party_mail.sql';
import m0006 from './0006_held_invitations.sql';
import m0007 from './0007_release_withdrawal.sql';
import m0008 from './0008_sealed_statements.sql';
import m0009 from './0009_vault_key_and_heir_backup.sql';
import m0010 from './0010_access_request.sql';
import m0011 from './0011_renewal_requests.sql';
import m0012 from './0012_owner_sessions.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006,
m0007,
m0008,
m0009,
m0010,
m0011,
m0012
    }
  }
  