import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../appliance/platform/config";
import { deviceAccess } from "../devices";
import { type ChannelSettings, ChannelSettingsError, checkChannelSettings, checkPresetChannels, createChannels, NO_CHANNELS, parseFromAddress } from "./index";

const devices = deviceAccess({ sysRoot: "/sys", devRoot: "/dev" });
const check = (s: Partial<ChannelSettings>) => checkChannelSettings({ ...NO_CHANNELS, ...s }, devices);
const fieldOf = (s: Partial<ChannelSettings>) => {
  try {
    check(s);
    return null;
  } catch (e) {
    return e instanceof ChannelSettingsError ? e.field : "other";
  }
};

describe("messaging settings", () => {
  test("good settings are tidied (blank → null)", () => {
    expect(check({ smsGatewayUrl: " http://sms:pw@192.168.1.40:8080 ", smtpUrl: "", smtpFrom: "  " })).toEqual({
      smsGatewayUrl: "http://sms:pw@192.168.1.40:8080",
      modemPath: null,
      smtpUrl: null,
      smtpFrom: null,
    });
    expect(check({ modemPath: "/dev/ttyUSB2", smtpUrl: "smtps://a:b@mail.example.com", smtpFrom: "shop@example.com" }).modemPath).toBe("/dev/ttyUSB2");
  });

  test("bad ones name their field", () => {
    expect(fieldOf({ smsGatewayUrl: "ftp://sms:pw@192.168.1.40" })).toBe("smsGatewayUrl");
    expect(fieldOf({ smsGatewayUrl: "http://192.168.1.40:8080" })).toBe("smsGatewayUrl");
    expect(fieldOf({ smsGatewayUrl: "http://sms:pw@192.168.1.40:8080/?x=1" })).toBe("smsGatewayUrl");
    expect(fieldOf({ smsGatewayUrl: "not a url" })).toBe("smsGatewayUrl");
    expect(fieldOf({ modemPath: "/etc/shadow" })).toBe("modemPath");
    expect(fieldOf({ modemPath: "/dev/../etc/shadow" })).toBe("modemPath");
    expect(fieldOf({ smtpUrl: "http://mail.example.com", smtpFrom: "a@example.com" })).toBe("smtpUrl");
    expect(fieldOf({ smtpUrl: "smtp://mail.example.com" })).toBe("smtpFrom");
    expect(fieldOf({ smtpUrl: "smtp://mail.example.com", smtpFrom: "a@example.com\r\nBcc: b@example.com" })).toBe("smtpFrom");
  });

  test("From addresses: bare or with a name; no line breaks, no junk", () => {
    expect(parseFromAddress("Ironbox Mosta <mosta@example.com>")).toBe("Ironbox Mosta <mosta@example.com>");
    expect(parseFromAddress(" shop@example.com ")).toBe("shop@example.com");
    for (const bad of ["shop", "shop@", "a@b", "Name <a@example.com", "a@example.com\nX: y", "<a@example.com> <b@example.com>"])
      expect(() => parseFromAddress(bad)).toThrow(ChannelSettingsError);
  });

  test("the phone wins over the modem when both are set", () => {
    const { sms, email } = createChannels({ ...NO_CHANNELS, smsGatewayUrl: "http://sms:pw@192.168.1.40:8080", modemPath: "/dev/ttyUSB2" }, { devices });
    expect(sms?.label).toBe("SMS via Android phone 192.168.1.40:8080");
    expect(email).toBeNull();
    expect(createChannels({ ...NO_CHANNELS, modemPath: "/dev/ttyUSB2" }, { devices }).sms?.label).toBe("SMS via modem /dev/ttyUSB2");
  });

  test("environment presets are checked at boot; errors name the variable and never echo the password", () => {
    const presetsOf = (env: Record<string, string>) => checkPresetChannels(loadConfig(env).messaging, devices);
    expect(presetsOf({ IRONBOX_SMS_GATEWAY_URL: "http://sms:pw@192.168.1.40:8080" }).smsGatewayUrl).toBe("http://sms:pw@192.168.1.40:8080");
    expect(() => presetsOf({ IRONBOX_SMS_GATEWAY_URL: "gopher://sms:hunter2@x" })).toThrow(/^IRONBOX_SMS_GATEWAY_URL: /);
    let said = "";
    try {
      presetsOf({ IRONBOX_SMTP_URL: "smtp://u:hunter2@mail.example.com/x" });
    } catch (e) {
      said = (e as Error).message;
    }
    expect(said).toMatch(/^IRONBOX_SMTP_URL: /);
    expect(said).not.toContain("hunter2");
    expect(() => presetsOf({ IRONBOX_SMTP_URL: "smtp://mail.example.com" })).toThrow("IRONBOX_SMTP_FROM: E-mail needs a From address too");
    expect(() => presetsOf({ IRONBOX_MODEM_PATH: "/tmp/x" })).toThrow(/^IRONBOX_MODEM_PATH: The modem's path must be a device under \/dev/);
  });
});
