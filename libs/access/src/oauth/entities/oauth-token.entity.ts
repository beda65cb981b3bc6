import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type TokenKind = 'access' | 'refresh';

/** Tokens are stored only as SHA-256 hashes; `family` links the tokens born of one grant. */
@Entity('oauth_tokens')
export class OAuthTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ type: 'varchar', length: 16 })
  kind: TokenKind;

  @Column({ type: 'varchar', length: 36 })
  family: string;

  @Column({ name: 'client_id', type: 'int' })
  clientId: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;

  /** When the login ends (DAM_REFRESH_TOKEN_MAX_DAYS after it), however often it rotates; NULL before issue 36. */
  @Column({ name: 'session_expires_at', type: 'datetime', nullable: true })
  sessionExpiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'datetime', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
