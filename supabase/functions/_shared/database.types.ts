export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: "13.0.5"
  }
  public: {
    Tables: {
      account_suspensions: {
        Row: {
          action: string
          actor_id: string | null
          created_at: string
          id: number
          reason: string
          suspended_until: string | null
          user_id: string
        }
        Insert: {
          action: string
          actor_id?: string | null
          created_at?: string
          id?: never
          reason: string
          suspended_until?: string | null
          user_id: string
        }
        Update: {
          action?: string
          actor_id?: string | null
          created_at?: string
          id?: never
          reason?: string
          suspended_until?: string | null
          user_id?: string
        }
        Relationships: []
      }
      after_scam_steps: {
        Row: {
          body_en: string
          body_fil: string
          contacts: string | null
          id: string
          link_url: string | null
          position: number
          reviewed_at: string
          title_en: string
          title_fil: string
          updated_at: string
          updated_by: string | null
        }
        Insert: {
          body_en: string
          body_fil: string
          contacts?: string | null
          id?: string
          link_url?: string | null
          position: number
          reviewed_at?: string
          title_en: string
          title_fil: string
          updated_at?: string
          updated_by?: string | null
        }
        Update: {
          body_en?: string
          body_fil?: string
          contacts?: string | null
          id?: string
          link_url?: string | null
          position?: number
          reviewed_at?: string
          title_en?: string
          title_fil?: string
          updated_at?: string
          updated_by?: string | null
        }
        Relationships: []
      }
      api_keys: {
        Row: {
          created_at: string
          id: string
          last_used_at: string | null
          name: string
          partner_organisation: string | null
          partner_since: string | null
          prefix: string
          revoked_at: string | null
          revoked_by: string | null
          user_id: string
        }
        Insert: {
          created_at?: string
          id?: string
          last_used_at?: string | null
          name: string
          partner_organisation?: string | null
          partner_since?: string | null
          prefix: string
          revoked_at?: string | null
          revoked_by?: string | null
          user_id: string
        }
        Update: {
          created_at?: string
          id?: string
          last_used_at?: string | null
          name?: string
          partner_organisation?: string | null
          partner_since?: string | null
          prefix?: string
          revoked_at?: string | null
          revoked_by?: string | null
          user_id?: string
        }
        Relationships: []
      }
      brands: {
        Row: {
          category: string
          id: number
          keywords: string[]
          name: string
          official_domains: string[]
          short_keywords: string[]
          updated_at: string
        }
        Insert: {
          category: string
          id?: never
          keywords?: string[]
          name: string
          official_domains?: string[]
          short_keywords?: string[]
          updated_at?: string
        }
        Update: {
          category?: string
          id?: never
          keywords?: string[]
          name?: string
          official_domains?: string[]
          short_keywords?: string[]
          updated_at?: string
        }
        Relationships: []
      }
      check_domain_lists: {
        Row: {
          created_at: string
          list: string
          note: string | null
          value: string
        }
        Insert: {
          created_at?: string
          list: string
          note?: string | null
          value: string
        }
        Update: {
          created_at?: string
          list?: string
          note?: string | null
          value?: string
        }
        Relationships: []
      }
      contact_message_replies: {
        Row: {
          admin_id: string | null
          body: string
          created_at: string
          id: string
          message_id: string
          send_error: string | null
          sent_at: string | null
          sent_to: string
        }
        Insert: {
          admin_id?: string | null
          body: string
          created_at?: string
          id?: string
          message_id: string
          send_error?: string | null
          sent_at?: string | null
          sent_to: string
        }
        Update: {
          admin_id?: string | null
          body?: string
          created_at?: string
          id?: string
          message_id?: string
          send_error?: string | null
          sent_at?: string | null
          sent_to?: string
        }
        Relationships: [
          {
            foreignKeyName: "contact_message_replies_message_id_fkey"
            columns: ["message_id"]
            isOneToOne: false
            referencedRelation: "contact_messages"
            referencedColumns: ["id"]
          },
        ]
      }
      contact_messages: {
        Row: {
          created_at: string
          email: string | null
          handled_at: string | null
          handled_by: string | null
          id: string
          message: string
          nickname: string | null
          subject: string | null
          user_id: string | null
        }
        Insert: {
          created_at?: string
          email?: string | null
          handled_at?: string | null
          handled_by?: string | null
          id?: string
          message: string
          nickname?: string | null
          subject?: string | null
          user_id?: string | null
        }
        Update: {
          created_at?: string
          email?: string | null
          handled_at?: string | null
          handled_by?: string | null
          id?: string
          message?: string
          nickname?: string | null
          subject?: string | null
          user_id?: string | null
        }
        Relationships: []
      }
      identifier_report_counts: {
        Row: {
          identifier_canonical: string
          report_count: number
          verified_count: number
        }
        Insert: {
          identifier_canonical: string
          report_count?: number
          verified_count?: number
        }
        Update: {
          identifier_canonical?: string
          report_count?: number
          verified_count?: number
        }
        Relationships: []
      }
      moderation_log: {
        Row: {
          actor_id: string | null
          created_at: string
          filed_at: string
          from_status: Database["public"]["Enums"]["report_status"]
          id: number
          identifier: string
          note: string | null
          reason: string | null
          removal_request_id: string | null
          report_id: string
          to_status: Database["public"]["Enums"]["report_status"]
          undo_of: number | null
        }
        Insert: {
          actor_id?: string | null
          created_at?: string
          filed_at: string
          from_status: Database["public"]["Enums"]["report_status"]
          id?: never
          identifier: string
          note?: string | null
          reason?: string | null
          removal_request_id?: string | null
          report_id: string
          to_status: Database["public"]["Enums"]["report_status"]
          undo_of?: number | null
        }
        Update: {
          actor_id?: string | null
          created_at?: string
          filed_at?: string
          from_status?: Database["public"]["Enums"]["report_status"]
          id?: never
          identifier?: string
          note?: string | null
          reason?: string | null
          removal_request_id?: string | null
          report_id?: string
          to_status?: Database["public"]["Enums"]["report_status"]
          undo_of?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "moderation_log_undo_of_fkey"
            columns: ["undo_of"]
            isOneToOne: false
            referencedRelation: "moderation_log"
            referencedColumns: ["id"]
          },
        ]
      }
      news: {
        Row: {
          author_id: string | null
          banner_path: string | null
          created_at: string
          id: string
          img_url: string | null
          news_description: string
          news_title: string
          source: string | null
          source_desc: string | null
          tags: string[]
          updated_at: string
        }
        Insert: {
          author_id?: string | null
          banner_path?: string | null
          created_at?: string
          id?: string
          img_url?: string | null
          news_description: string
          news_title: string
          source?: string | null
          source_desc?: string | null
          tags?: string[]
          updated_at?: string
        }
        Update: {
          author_id?: string | null
          banner_path?: string | null
          created_at?: string
          id?: string
          img_url?: string | null
          news_description?: string
          news_title?: string
          source?: string | null
          source_desc?: string | null
          tags?: string[]
          updated_at?: string
        }
        Relationships: []
      }
      notifications: {
        Row: {
          created_at: string
          email_deferred_until: string | null
          emailed_at: string | null
          id: string
          identifier: string | null
          kind: Database["public"]["Enums"]["notification_kind"]
          read_at: string | null
          report_id: string | null
          user_id: string
        }
        Insert: {
          created_at?: string
          email_deferred_until?: string | null
          emailed_at?: string | null
          id?: string
          identifier?: string | null
          kind: Database["public"]["Enums"]["notification_kind"]
          read_at?: string | null
          report_id?: string | null
          user_id: string
        }
        Update: {
          created_at?: string
          email_deferred_until?: string | null
          emailed_at?: string | null
          id?: string
          identifier?: string | null
          kind?: Database["public"]["Enums"]["notification_kind"]
          read_at?: string | null
          report_id?: string | null
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "notifications_report_id_fkey"
            columns: ["report_id"]
            isOneToOne: false
            referencedRelation: "report_cards"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_report_id_fkey"
            columns: ["report_id"]
            isOneToOne: false
            referencedRelation: "reports"
            referencedColumns: ["id"]
          },
        ]
      }
      notify_registrations: {
        Row: {
          asset_name: string
          created_at: string
          id: string
          identifier_canonical: string
          identifier_kind: string
          user_id: string
        }
        Insert: {
          asset_name: string
          created_at?: string
          id?: string
          identifier_canonical: string
          identifier_kind: string
          user_id?: string
        }
        Update: {
          asset_name?: string
          created_at?: string
          id?: string
          identifier_canonical?: string
          identifier_kind?: string
          user_id?: string
        }
        Relationships: []
      }
      owner_statements: {
        Row: {
          body: string
          created_at: string
          hidden_at: string | null
          hidden_by: string | null
          hidden_reason: string | null
          id: string
          identifier_canonical: string
          updated_at: string
          user_id: string
        }
        Insert: {
          body: string
          created_at?: string
          hidden_at?: string | null
          hidden_by?: string | null
          hidden_reason?: string | null
          id?: string
          identifier_canonical: string
          updated_at?: string
          user_id: string
        }
        Update: {
          body?: string
          created_at?: string
          hidden_at?: string | null
          hidden_by?: string | null
          hidden_reason?: string | null
          id?: string
          identifier_canonical?: string
          updated_at?: string
          user_id?: string
        }
        Relationships: []
      }
      ownership_evidence: {
        Row: {
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision: string | null
          id: string
          image_path: string | null
          note: string | null
          profile_url: string
          proof_id: string
          reason: string | null
          user_id: string
        }
        Insert: {
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision?: string | null
          id?: string
          image_path?: string | null
          note?: string | null
          profile_url: string
          proof_id: string
          reason?: string | null
          user_id: string
        }
        Update: {
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision?: string | null
          id?: string
          image_path?: string | null
          note?: string | null
          profile_url?: string
          proof_id?: string
          reason?: string | null
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "ownership_evidence_proof_id_fkey"
            columns: ["proof_id"]
            isOneToOne: false
            referencedRelation: "ownership_proofs"
            referencedColumns: ["id"]
          },
        ]
      }
      ownership_proof_log: {
        Row: {
          created_at: string
          detail: string | null
          event: string
          id: number
          ok: boolean | null
          proof_id: string
        }
        Insert: {
          created_at?: string
          detail?: string | null
          event: string
          id?: never
          ok?: boolean | null
          proof_id: string
        }
        Update: {
          created_at?: string
          detail?: string | null
          event?: string
          id?: never
          ok?: boolean | null
          proof_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "ownership_proof_log_proof_id_fkey"
            columns: ["proof_id"]
            isOneToOne: false
            referencedRelation: "ownership_proofs"
            referencedColumns: ["id"]
          },
        ]
      }
      ownership_proofs: {
        Row: {
          challenge: string | null
          code_hash: string | null
          code_sent_at: string | null
          created_at: string
          expires_at: string | null
          id: string
          identifier_canonical: string
          identifier_kind: Database["public"]["Enums"]["reported_account_type"]
          method: Database["public"]["Enums"]["ownership_method"]
          user_id: string
          verified_at: string | null
          withdrawn_at: string | null
          wrong_tries: number
        }
        Insert: {
          challenge?: string | null
          code_hash?: string | null
          code_sent_at?: string | null
          created_at?: string
          expires_at?: string | null
          id?: string
          identifier_canonical: string
          identifier_kind: Database["public"]["Enums"]["reported_account_type"]
          method: Database["public"]["Enums"]["ownership_method"]
          user_id: string
          verified_at?: string | null
          withdrawn_at?: string | null
          wrong_tries?: number
        }
        Update: {
          challenge?: string | null
          code_hash?: string | null
          code_sent_at?: string | null
          created_at?: string
          expires_at?: string | null
          id?: string
          identifier_canonical?: string
          identifier_kind?: Database["public"]["Enums"]["reported_account_type"]
          method?: Database["public"]["Enums"]["ownership_method"]
          user_id?: string
          verified_at?: string | null
          withdrawn_at?: string | null
          wrong_tries?: number
        }
        Relationships: []
      }
      partner_feed_downloads: {
        Row: {
          downloaded_at: string
          file: string
          id: number
          items: number
          key_id: string | null
          not_modified: boolean
          organisation: string
        }
        Insert: {
          downloaded_at?: string
          file: string
          id?: never
          items: number
          key_id?: string | null
          not_modified?: boolean
          organisation: string
        }
        Update: {
          downloaded_at?: string
          file?: string
          id?: never
          items?: number
          key_id?: string | null
          not_modified?: boolean
          organisation?: string
        }
        Relationships: [
          {
            foreignKeyName: "partner_feed_downloads_key_id_fkey"
            columns: ["key_id"]
            isOneToOne: false
            referencedRelation: "api_keys"
            referencedColumns: ["id"]
          },
        ]
      }
      profiles: {
        Row: {
          avatar_path: string | null
          created_at: string
          email: string | null
          id: string
          language: string
          name: string | null
          updated_at: string
        }
        Insert: {
          avatar_path?: string | null
          created_at?: string
          email?: string | null
          id: string
          language?: string
          name?: string | null
          updated_at?: string
        }
        Update: {
          avatar_path?: string | null
          created_at?: string
          email?: string | null
          id?: string
          language?: string
          name?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      removal_requests: {
        Row: {
          contact_confirmed_at: string | null
          contact_email: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision: string | null
          decision_note: string | null
          decision_reason: string | null
          escalated_at: string | null
          id: string
          reason: string
          report_id: string
          reporter_response: string | null
          requester_id: string | null
          resolved_at: string | null
          responded_at: string | null
          status: Database["public"]["Enums"]["removal_request_status"]
        }
        Insert: {
          contact_confirmed_at?: string | null
          contact_email: string
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision?: string | null
          decision_note?: string | null
          decision_reason?: string | null
          escalated_at?: string | null
          id?: string
          reason: string
          report_id: string
          reporter_response?: string | null
          requester_id?: string | null
          resolved_at?: string | null
          responded_at?: string | null
          status?: Database["public"]["Enums"]["removal_request_status"]
        }
        Update: {
          contact_confirmed_at?: string | null
          contact_email?: string
          created_at?: string
          decided_at?: string | null
          decided_by?: string | null
          decision?: string | null
          decision_note?: string | null
          decision_reason?: string | null
          escalated_at?: string | null
          id?: string
          reason?: string
          report_id?: string
          reporter_response?: string | null
          requester_id?: string | null
          resolved_at?: string | null
          responded_at?: string | null
          status?: Database["public"]["Enums"]["removal_request_status"]
        }
        Relationships: [
          {
            foreignKeyName: "removal_requests_report_id_fkey"
            columns: ["report_id"]
            isOneToOne: false
            referencedRelation: "report_cards"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "removal_requests_report_id_fkey"
            columns: ["report_id"]
            isOneToOne: false
            referencedRelation: "reports"
            referencedColumns: ["id"]
          },
        ]
      }
      reports: {
        Row: {
          amount_lost: number | null
          consent_to_contact: boolean
          country: string | null
          created_at: string
          evidence_path: string | null
          evidence_paths: string[]
          id: string
          incident_date: string
          incident_description: string | null
          incident_type: Database["public"]["Enums"]["incident_type"]
          loc: string | null
          location: string | null
          report_date: string
          reported_account: string
          reported_account_canonical: string
          reported_account_type: Database["public"]["Enums"]["reported_account_type"]
          reporter_id: string | null
          source: string | null
          status: Database["public"]["Enums"]["report_status"]
          status_note: string | null
          status_reason: string | null
          updated_at: string
        }
        Insert: {
          amount_lost?: number | null
          consent_to_contact?: boolean
          country?: string | null
          created_at?: string
          evidence_path?: string | null
          evidence_paths?: string[]
          id?: string
          incident_date: string
          incident_description?: string | null
          incident_type: Database["public"]["Enums"]["incident_type"]
          loc?: string | null
          location?: string | null
          report_date?: string
          reported_account: string
          reported_account_canonical: string
          reported_account_type: Database["public"]["Enums"]["reported_account_type"]
          reporter_id?: string | null
          source?: string | null
          status?: Database["public"]["Enums"]["report_status"]
          status_note?: string | null
          status_reason?: string | null
          updated_at?: string
        }
        Update: {
          amount_lost?: number | null
          consent_to_contact?: boolean
          country?: string | null
          created_at?: string
          evidence_path?: string | null
          evidence_paths?: string[]
          id?: string
          incident_date?: string
          incident_description?: string | null
          incident_type?: Database["public"]["Enums"]["incident_type"]
          loc?: string | null
          location?: string | null
          report_date?: string
          reported_account?: string
          reported_account_canonical?: string
          reported_account_type?: Database["public"]["Enums"]["reported_account_type"]
          reporter_id?: string | null
          source?: string | null
          status?: Database["public"]["Enums"]["report_status"]
          status_note?: string | null
          status_reason?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      search_log: {
        Row: {
          city: string | null
          country: string | null
          created_at: string
          id: string
          identifier_canonical: string | null
          identifier_kind: string | null
          ip_hash: string | null
          loc: string | null
          org: string | null
          postal: string | null
          region: string | null
          result_count: number
          search_string: string
          user_id: string | null
        }
        Insert: {
          city?: string | null
          country?: string | null
          created_at?: string
          id?: string
          identifier_canonical?: string | null
          identifier_kind?: string | null
          ip_hash?: string | null
          loc?: string | null
          org?: string | null
          postal?: string | null
          region?: string | null
          result_count?: number
          search_string: string
          user_id?: string | null
        }
        Update: {
          city?: string | null
          country?: string | null
          created_at?: string
          id?: string
          identifier_canonical?: string | null
          identifier_kind?: string | null
          ip_hash?: string | null
          loc?: string | null
          org?: string | null
          postal?: string | null
          region?: string | null
          result_count?: number
          search_string?: string
          user_id?: string | null
        }
        Relationships: []
      }
      takedown_reports: {
        Row: {
          abuse_contact: string | null
          created_at: string
          feed_item_id: number
          host: string
          id: string
          reviewed_at: string | null
          reviewed_by: string | null
          send_error: string | null
          sent_at: string | null
          status: string
          target_brand: string | null
          url: string
          xarf: NonNullable<Json>
        }
        Insert: {
          abuse_contact?: string | null
          created_at?: string
          feed_item_id: number
          host: string
          id?: string
          reviewed_at?: string | null
          reviewed_by?: string | null
          send_error?: string | null
          sent_at?: string | null
          status?: string
          target_brand?: string | null
          url: string
          xarf: NonNullable<Json>
        }
        Update: {
          abuse_contact?: string | null
          created_at?: string
          feed_item_id?: number
          host?: string
          id?: string
          reviewed_at?: string | null
          reviewed_by?: string | null
          send_error?: string | null
          sent_at?: string | null
          status?: string
          target_brand?: string | null
          url?: string
          xarf?: NonNullable<Json>
        }
        Relationships: []
      }
      user_roles: {
        Row: {
          granted_at: string
          role: Database["public"]["Enums"]["app_role"]
          user_id: string
        }
        Insert: {
          granted_at?: string
          role: Database["public"]["Enums"]["app_role"]
          user_id: string
        }
        Update: {
          granted_at?: string
          role?: Database["public"]["Enums"]["app_role"]
          user_id?: string
        }
        Relationships: []
      }
      visitor_log: {
        Row: {
          city: string | null
          country: string | null
          created_at: string
          id: string
          ip_hash: string | null
          loc: string | null
          org: string | null
          path: string | null
          postal: string | null
          region: string | null
          user_id: string | null
        }
        Insert: {
          city?: string | null
          country?: string | null
          created_at?: string
          id?: string
          ip_hash?: string | null
          loc?: string | null
          org?: string | null
          path?: string | null
          postal?: string | null
          region?: string | null
          user_id?: string | null
        }
        Update: {
          city?: string | null
          country?: string | null
          created_at?: string
          id?: string
          ip_hash?: string | null
          loc?: string | null
          org?: string | null
          path?: string | null
          postal?: string | null
          region?: string | null
          user_id?: string | null
        }
        Relationships: []
      }
    }
    Views: {
      report_cards: {
        Row: {
          amount_lost: number | null
          consent_to_contact: boolean | null
          country: string | null
          created_at: string | null
          evidence_path: string | null
          id: string | null
          incident_date: string | null
          incident_description: string | null
          incident_type: Database["public"]["Enums"]["incident_type"] | null
          loc: string | null
          location: string | null
          report_date: string | null
          reported_account: string | null
          reported_account_canonical: string | null
          reported_account_type:
            | Database["public"]["Enums"]["reported_account_type"]
            | null
          reported_case_count: number | null
          reporter_id: string | null
          source: string | null
          status: Database["public"]["Enums"]["report_status"] | null
          status_note: string | null
          status_reason: string | null
          updated_at: string | null
        }
        Relationships: []
      }
    }
    Functions: {
      admin_app_stats: { Args: Record<PropertyKey, never>; Returns: Json }
      admin_contact_message_extras: {
        Args: { message_ids: string[] }
        Returns: Json
      }
      admin_moderation_log: {
        Args: { before_id?: number; max_rows?: number; report?: string }
        Returns: Json
      }
      admin_removal_decisions: { Args: { max_rows?: number }; Returns: Json }
      admin_removal_queue: {
        Args: Record<PropertyKey, never>
        Returns: {
          contact_confirmed_at: string
          contact_email: string
          deadline: string
          escalated_at: string
          reason: string
          report_id: string
          report_status: Database["public"]["Enums"]["report_status"]
          reported_account: string
          reporter_response: string
          request_id: string
          request_status: Database["public"]["Enums"]["removal_request_status"]
          requested_at: string
          responded_at: string
        }[]
      }
      admin_reply_contact_message: {
        Args: { body: string; message_id: string }
        Returns: Json
      }
      admin_review_queue: {
        Args: {
          account_type?: Database["public"]["Enums"]["reported_account_type"]
          has_evidence?: boolean
          incident_type?: Database["public"]["Enums"]["incident_type"]
          max_groups?: number
          min_age_days?: number
          region?: string
          search?: string
          sort?: string
        }
        Returns: Json
      }
      admin_search_log: {
        Args: {
          before_created_at?: string
          before_id?: string
          country_code?: string
          kind?: string
          max_rows?: number
          no_results?: boolean
          search?: string
          since?: string
          until?: string
        }
        Returns: {
          city: string
          country: string
          created_at: string
          id: string
          identifier_kind: string
          region: string
          result_count: number
          search_string: string
          signed_in: boolean
        }[]
      }
      admin_set_suspension: {
        Args: {
          days?: number
          reason: string
          suspend: boolean
          user_id: string
        }
        Returns: {
          action: string
          actor_id: string | null
          created_at: string
          id: number
          reason: string
          suspended_until: string | null
          user_id: string
        }
        SetofOptions: {
          from: "*"
          to: "account_suspensions"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      admin_suspension_log: {
        Args: { for_user?: string; max_rows?: number }
        Returns: {
          action: string
          actor_email: string
          actor_id: string
          created_at: string
          id: number
          reason: string
          suspended_until: string
          user_email: string
          user_id: string
        }[]
      }
      admin_users: {
        Args: {
          before_created_at?: string
          before_id?: string
          max_rows?: number
          min_reports?: number
          role?: string
          search?: string
          suspended?: boolean
        }
        Returns: {
          created_at: string
          email: string
          id: string
          is_admin: boolean
          last_sign_in_at: string
          name: string
          reports_filed: number
          reports_rejected: number
          reports_removed: number
          reports_verified: number
          suspended_until: string
          suspension_reason: string
        }[]
      }
      admin_visitor_log: {
        Args: {
          before_created_at?: string
          before_id?: string
          country_code?: string
          max_rows?: number
          place?: string
          search?: string
          since?: string
          until?: string
        }
        Returns: {
          city: string
          country: string
          created_at: string
          id: string
          path: string
          region: string
          signed_in: boolean
        }[]
      }
      answer_removal_request: {
        Args: { answer: string; request_id: string }
        Returns: Json
      }
      api_limit: { Args: { cost?: number; key_hash?: string }; Returns: Json }
      auth_check_signup_code: {
        Args: { p_code: string; p_email: string }
        Returns: Json
      }
      auth_code_try_result: {
        Args: { p_email: string; p_ok: boolean }
        Returns: undefined
      }
      auth_login_claim: { Args: { p_email: string }; Returns: Json }
      auth_login_result: {
        Args: { p_email: string; p_ok: boolean }
        Returns: undefined
      }
      auth_register_check: { Args: { p_email: string }; Returns: Json }
      auth_register_lookup: { Args: { p_email: string }; Returns: boolean }
      auth_verify_link_try: { Args: Record<PropertyKey, never>; Returns: Json }
      canonical_identifier: {
        Args: { kind: string; value: string }
        Returns: string
      }
      canonical_identifier_auto: { Args: { value: string }; Returns: string }
      check_identifiers: {
        Args: { identifiers: Json; visitor?: Json }
        Returns: Json
      }
      claim_phone_ownership: {
        Args: { kind: string; value: string }
        Returns: Json
      }
      confirm_removal_request: {
        Args: { request_id: string; token: string }
        Returns: Json
      }
      create_api_key: { Args: { name: string }; Returns: Json }
      decide_ownership_evidence: {
        Args: { approve: boolean; evidence_id: string; reason?: string }
        Returns: Json
      }
      decide_removal_request: {
        Args: {
          decision: string
          note?: string
          reason?: string
          request_id: string
        }
        Returns: {
          contact_confirmed_at: string | null
          contact_email: string
          created_at: string
          decided_at: string | null
          decided_by: string | null
          decision: string | null
          decision_note: string | null
          decision_reason: string | null
          escalated_at: string | null
          id: string
          reason: string
          report_id: string
          reporter_response: string | null
          requester_id: string | null
          resolved_at: string | null
          responded_at: string | null
          status: Database["public"]["Enums"]["removal_request_status"]
        }
        SetofOptions: {
          from: "*"
          to: "removal_requests"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      deployment_status: { Args: Record<PropertyKey, never>; Returns: Json }
      detect_identifier_kind: { Args: { value: string }; Returns: string }
      expire_removal_requests: {
        Args: Record<PropertyKey, never>
        Returns: number
      }
      feed_build_begin: { Args: Record<PropertyKey, never>; Returns: number }
      feed_build_continue: { Args: Record<PropertyKey, never>; Returns: number }
      feed_build_cursor: { Args: Record<PropertyKey, never>; Returns: Json }
      feed_build_start: { Args: { rules_key: string }; Returns: Json }
      feed_build_state: { Args: { count?: boolean }; Returns: Json }
      feed_build_step: {
        Args: { step: string; synced_at?: string }
        Returns: undefined
      }
      feed_candidates: {
        Args: Record<PropertyKey, never>
        Returns: {
          canonical: string
          first_reported: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          written: string
        }[]
      }
      feed_classify_changes: {
        Args: {
          after_canonical?: string
          after_kind?: string
          max_items?: number
          rules_key: string
        }
        Returns: {
          brand: string
          brand_known: boolean
          canonical: string
          kind: string
        }[]
      }
      feed_classify_next: {
        Args: { max_items?: number; rules_key: string }
        Returns: {
          brand: string
          brand_known: boolean
          canonical: string
          kind: string
        }[]
      }
      feed_classify_store: {
        Args: { classes: Json; rules_key: string }
        Returns: number
      }
      feed_classify_store_at: {
        Args: {
          after_canonical: string
          after_kind: string
          classes: Json
          rules_key: string
        }
        Returns: number
      }
      feed_file_body: {
        Args: {
          format_key: string
          grp: string
          part: string
          period: string
          prefix: string
          separator: string
          suffix: string
          tlp: string
        }
        Returns: {
          body: string
          bytes: number
          items: number
          sha256: string
        }[]
      }
      feed_file_chunks: {
        Args: {
          chunk_chars?: number
          format_key: string
          grp: string
          part: string
          period: string
          prefix: string
          separator: string
          suffix: string
          tlp: string
        }
        Returns: {
          bytes: number
          chunk: string
          items: number
          piece: number
          sha256: string
        }[]
      }
      feed_file_groups: {
        Args: Record<PropertyKey, never>
        Returns: {
          grp: string
          id_sum: number
          items: number
          list_items: number
          newest: string
          period: string
          tlp: string
        }[]
      }
      feed_file_pieces: {
        Args: {
          chunk_bytes?: number
          format_key: string
          grp: string
          part: string
          period: string
          prefix: string
          separator: string
          suffix: string
          tlp: string
        }
        Returns: {
          bytes: number
          chunk: string
          items: number
          piece: number
          sha256: string
        }[]
      }
      feed_files_record: {
        Args: { files: Json; removed?: string[] }
        Returns: undefined
      }
      feed_files_state: {
        Args: Record<PropertyKey, never>
        Returns: {
          name: string
          sha256: string
          source_key: string
        }[]
      }
      feed_items_current: {
        Args: Record<PropertyKey, never>
        Returns: {
          added_at: string
          brand: string
          canonical: string
          event_day: string
          first_reported: string
          id: number
          indicator_type: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          stix_id: string
          tlp: string
          value: string
          version_at: string
          written: string
        }[]
      }
      feed_new_links: {
        Args: { ids: number[]; max_items?: number; since: string }
        Returns: {
          added_at: string
          brand: string
          canonical: string
          event_day: string
          first_reported: string
          id: number
          indicator_type: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          stix_id: string
          tlp: string
          value: string
          version_at: string
          written: string
        }[]
      }
      feed_render_after: {
        Args: { after_id?: number; format_key: string; max_items?: number }
        Returns: {
          added_at: string
          brand: string
          canonical: string
          event_day: string
          first_reported: string
          id: number
          indicator_type: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          stix_id: string
          tlp: string
          value: string
          version_at: string
          withdrawn_at: string
          written: string
        }[]
      }
      feed_render_next: {
        Args: { format_key: string; max_items?: number }
        Returns: {
          added_at: string
          brand: string
          canonical: string
          event_day: string
          first_reported: string
          id: number
          indicator_type: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          stix_id: string
          tlp: string
          value: string
          version_at: string
          withdrawn_at: string
          written: string
        }[]
      }
      feed_render_sql: {
        Args: {
          after_id?: number
          format_key: string
          max_items?: number
          site: string
        }
        Returns: {
          last_id: number
          rendered: number
        }[]
      }
      feed_render_store: {
        Args: { format_key: string; renders: Json }
        Returns: number
      }
      feed_sync: { Args: { items: Json }; Returns: Json }
      feed_sync_changes: { Args: Record<PropertyKey, never>; Returns: Json }
      feed_sync_classified: { Args: Record<PropertyKey, never>; Returns: Json }
      hide_owner_statement: {
        Args: { reason: string; statement_id: string }
        Returns: undefined
      }
      issue_ownership_code: {
        Args: { proof_id: string }
        Returns: {
          address: string
          code: string
          language: string
        }[]
      }
      issue_removal_confirmations: {
        Args: { max_rows?: number }
        Returns: {
          contact_email: string
          language: string
          reported_account: string
          request_id: string
          token: string
        }[]
      }
      locate_address: {
        Args: { address: string }
        Returns: {
          city: string
          country: string
          loc: string
          postal: string
          region: string
        }[]
      }
      locate_report: {
        Args: { report_id: string; reporter: string; visit: Json }
        Returns: boolean
      }
      mail_recipient_take: { Args: { p_email: string }; Returns: number }
      moderate_reports: {
        Args: {
          note?: string
          reason?: string
          report_ids: string[]
          status: Database["public"]["Enums"]["report_status"]
        }
        Returns: {
          actor_id: string | null
          created_at: string
          filed_at: string
          from_status: Database["public"]["Enums"]["report_status"]
          id: number
          identifier: string
          note: string | null
          reason: string | null
          removal_request_id: string | null
          report_id: string
          to_status: Database["public"]["Enums"]["report_status"]
          undo_of: number | null
        }[]
        SetofOptions: {
          from: "*"
          to: "moderation_log"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      moderation_reasons: {
        Args: Record<PropertyKey, never>
        Returns: string[]
      }
      moderation_statistics: { Args: Record<PropertyKey, never>; Returns: Json }
      my_report_removal_requests: {
        Args: Record<PropertyKey, never>
        Returns: {
          answer_by: string
          can_answer: boolean
          created_at: string
          decided_at: string
          decision: string
          decision_note: string
          decision_reason: string
          escalated_at: string
          id: string
          reason: string
          report_id: string
          reporter_response: string
          responded_at: string
          status: Database["public"]["Enums"]["removal_request_status"]
        }[]
      }
      open_data_daily: {
        Args: { days?: number }
        Returns: {
          amount_lost_php: number
          date: string
          incident_type: Database["public"]["Enums"]["incident_type"]
          reported_account_type: Database["public"]["Enums"]["reported_account_type"]
          reports: number
          status: Database["public"]["Enums"]["report_status"]
        }[]
      }
      orphan_uploads: {
        Args: { p_grace_seconds?: number; p_limit?: number }
        Returns: {
          bucket: string
          path: string
        }[]
      }
      owned_identifier_reports: { Args: { identifier: string }; Returns: Json }
      owner_request_removal: {
        Args: { reason: string; report_id: string }
        Returns: string
      }
      owner_statements_for: { Args: { canonicals: string[] }; Returns: Json }
      owner_statements_in_ranges: {
        Args: { prefixes: string[] }
        Returns: Json
      }
      partner_feed_access: {
        Args: { file: string; if_none_match?: string; key_hash: string }
        Returns: Json
      }
      public_statistics: { Args: { period?: string }; Returns: Json }
      range_lookup: { Args: { prefix: string }; Returns: Json }
      range_lookup_limited: {
        Args: {
          cost?: number
          forwarded_for?: string
          key_hash?: string
          prefix: string
        }
        Returns: Json
      }
      range_lookup_limited_many: { Args: { requests: Json }; Returns: Json }
      rate_limit_check: {
        Args: { cost?: number; name: string; subject: string }
        Returns: Json
      }
      record_bio_check: {
        Args: { detail: string; ok: boolean; proof_id: string }
        Returns: Json
      }
      record_contact_reply_sent: {
        Args: { error?: string; reply_id: string }
        Returns: undefined
      }
      record_ownership_check: {
        Args: { detail: string; ok: boolean; proof_id: string }
        Returns: Json
      }
      record_visits: {
        Args: {
          client_address: unknown
          paths: string[]
          visit: Json
          visitor_id: string
        }
        Returns: number
      }
      refresh_public_statistics: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      report_details: { Args: { report_id: string }; Returns: Json }
      report_signals: {
        Args: { report_ids: string[] }
        Returns: {
          network_known: boolean
          report_id: string
          shared_network_reporters: number
          young_account: boolean
        }[]
      }
      review_takedown_report: {
        Args: { abuse_contact?: string; decision: string; report_id: string }
        Returns: {
          abuse_contact: string | null
          created_at: string
          feed_item_id: number
          host: string
          id: string
          reviewed_at: string | null
          reviewed_by: string | null
          send_error: string | null
          sent_at: string | null
          status: string
          target_brand: string | null
          url: string
          xarf: NonNullable<Json>
        }
        SetofOptions: {
          from: "*"
          to: "takedown_reports"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      revoke_api_key: {
        Args: { key_id: string }
        Returns: {
          created_at: string
          id: string
          last_used_at: string | null
          name: string
          partner_organisation: string | null
          partner_since: string | null
          prefix: string
          revoked_at: string | null
          revoked_by: string | null
          user_id: string
        }
        SetofOptions: {
          from: "*"
          to: "api_keys"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      search_reports: { Args: { search_string: string }; Returns: Json }
      search_reports_located: {
        Args: {
          client_address: unknown
          search_string: string
          searcher: string
          visitor: Json
        }
        Returns: Json
      }
      search_top_identifier: { Args: { ref: string }; Returns: Json }
      set_api_key_partner: {
        Args: { key_id: string; organisation: string }
        Returns: {
          created_at: string
          id: string
          last_used_at: string | null
          name: string
          partner_organisation: string | null
          partner_since: string | null
          prefix: string
          revoked_at: string | null
          revoked_by: string | null
          user_id: string
        }
        SetofOptions: {
          from: "*"
          to: "api_keys"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      set_owner_statement: {
        Args: { body: string; identifier: string }
        Returns: Json
      }
      set_report_status: {
        Args: {
          report_id: string
          status: Database["public"]["Enums"]["report_status"]
        }
        Returns: {
          amount_lost: number | null
          consent_to_contact: boolean
          country: string | null
          created_at: string
          evidence_path: string | null
          evidence_paths: string[]
          id: string
          incident_date: string
          incident_description: string | null
          incident_type: Database["public"]["Enums"]["incident_type"]
          loc: string | null
          location: string | null
          report_date: string
          reported_account: string
          reported_account_canonical: string
          reported_account_type: Database["public"]["Enums"]["reported_account_type"]
          reporter_id: string | null
          source: string | null
          status: Database["public"]["Enums"]["report_status"]
          status_note: string | null
          status_reason: string | null
          updated_at: string
        }
        SetofOptions: {
          from: "*"
          to: "reports"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      start_ownership_proof: {
        Args: {
          kind: string
          method: Database["public"]["Enums"]["ownership_method"]
          value: string
        }
        Returns: Json
      }
      start_social_proof: { Args: { value: string }; Returns: Json }
      submit_ownership_evidence: {
        Args: {
          image_path?: string
          note?: string
          profile_url: string
          proof_id: string
        }
        Returns: Json
      }
      takedown_add: { Args: { reports: Json }; Returns: number }
      takedown_mark: {
        Args: { error?: string; report_id: string }
        Returns: undefined
      }
      takedown_outbox: { Args: { max_reports?: number }; Returns: Json }
      taxii_page: {
        Args: {
          added_after?: string
          after_id?: number
          after_version?: string
          ids?: string[]
          indicator_types?: string[]
          max_items?: number
          tlp: string
        }
        Returns: {
          added_at: string
          brand: string
          canonical: string
          first_reported: string
          id: number
          indicator_type: string
          kind: string
          last_reported: string
          reporters: number
          reports: number
          scam_type: string
          stix_id: string
          value: string
          version_at: string
          withdrawn_at: string
          written: string
        }[]
      }
      undo_moderation: {
        Args: { log_id: number }
        Returns: {
          actor_id: string | null
          created_at: string
          filed_at: string
          from_status: Database["public"]["Enums"]["report_status"]
          id: number
          identifier: string
          note: string | null
          reason: string | null
          removal_request_id: string | null
          report_id: string
          to_status: Database["public"]["Enums"]["report_status"]
          undo_of: number | null
        }
        SetofOptions: {
          from: "*"
          to: "moderation_log"
          isOneToOne: true
          isSetofReturn: false
        }
      }
      unhide_owner_statement: {
        Args: { statement_id: string }
        Returns: undefined
      }
      upload_take: { Args: { p_bytes: number; p_user: string }; Returns: Json }
      user_report_stats: { Args: Record<PropertyKey, never>; Returns: Json }
      verify_ownership_code: {
        Args: { code: string; proof_id: string }
        Returns: Json
      }
      watch_owned_identifier: {
        Args: { identifier: string }
        Returns: undefined
      }
      withdraw_ownership_proof: { Args: { proof_id: string }; Returns: Json }
    }
    Enums: {
      app_role: "admin"
      incident_type: "scam" | "hacked" | "spam"
      notification_kind:
        | "identifier_reported"
        | "removal_requested"
        | "report_status_changed"
      ownership_method: "sms" | "email" | "dns" | "wellknown" | "bio" | "review"
      removal_request_status: "open" | "report_removed" | "dismissed"
      report_status: "pending" | "verified" | "rejected" | "removed"
      reported_account_type:
        | "mobile"
        | "email"
        | "ewallet"
        | "crypto"
        | "website"
        | "social"
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {
      app_role: ["admin"],
      incident_type: ["scam", "hacked", "spam"],
      notification_kind: [
        "identifier_reported",
        "removal_requested",
        "report_status_changed",
      ],
      ownership_method: ["sms", "email", "dns", "wellknown", "bio", "review"],
      removal_request_status: ["open", "report_removed", "dismissed"],
      report_status: ["pending", "verified", "rejected", "removed"],
      reported_account_type: [
        "mobile",
        "email",
        "ewallet",
        "crypto",
        "website",
        "social",
      ],
    },
  },
} as const
