"""Build the PDF sheets of blind6 (fictional vendors). Run: /work/main/.venv/bin/python make_pdfs.py"""

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import SimpleDocTemplate, Paragraph, Table, TableStyle, Spacer, PageBreak

pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
F = "STSong-Light"
H1 = ParagraphStyle("h1", fontName=F, fontSize=16, leading=22, spaceAfter=8)
H2 = ParagraphStyle("h2", fontName=F, fontSize=12, leading=17, spaceBefore=6, spaceAfter=4)
P = ParagraphStyle("p", fontName=F, fontSize=9.5, leading=14, wordWrap="CJK")
C = ParagraphStyle("c", fontName=F, fontSize=8.5, leading=12, wordWrap="CJK")
N = ParagraphStyle("n", fontName=F, fontSize=7.5, leading=10, textColor=colors.grey, wordWrap="CJK")


def table(rows, widths):
    data = [[Paragraph(str(c), C) for c in r] for r in rows]
    t = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde6f0")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return t


def footer(text):
    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont(F, 7.5)
        canvas.drawString(18 * mm, 10 * mm, text)
        canvas.drawRightString(192 * mm, 10 * mm, str(doc.page))
        canvas.restoreState()

    return draw


def build(name, story, foot):
    doc = SimpleDocTemplate(
        name, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm, bottomMargin=18 * mm, title=name
    )
    doc.build(story, onFirstPage=footer(foot), onLaterPages=footer(foot))


# ---------------------------------------------------------------- 1. server
s = [
    Paragraph("擎云 QY-G880 M2 AI 训练服务器 技术规格", H1),
    Paragraph("产品概述", H2),
    Paragraph(
        "QY-G880 M2 是擎云计算面向千亿参数大模型训练推出的 6U 双路 AI 服务器。整机单机8颗曜石 YS-300 OAM "
        "加速模组，模组之间通过 YLink 全互联拓扑实现卡间互联，单卡卡间互联带宽 896GB/s（双向），8 颗模组构成一个"
        "完整的高速互联域；参数面采用一卡一网卡的轨道化设计，满足大规模分布式训练对机间互联的需求。",
        P,
    ),
    Spacer(1, 4),
    Paragraph("表1 技术规格", H2),
    table(
        [
            ["特征", "规格"],
            ["型号", "QY-G880 M2"],
            ["外形", "6U 机架式"],
            ["处理器", "2 颗第五代至强可扩展处理器，单颗最高 64 核，TDP 最高 350W"],
            ["内存", "32 条 DDR5 RDIMM，内存频率最高 5600MHz，最大容量 8TB"],
            ["加速模组", "8 颗曜石 YS-300 OAM，单颗 96GB HBM3，显存带宽 3.2TB/s，单颗功耗 700W"],
            ["卡间互联", "YLink 全互联，每颗模组 7 条链路，单链路单向带宽 64GB/s"],
            ["CPU-加速器互联", "每颗模组经 PCIe 5.0 x16 连接至 PCIe Switch，带宽 128GB/s"],
            ["参数面网络", "8 × 400Gb/s 单口网卡（每颗模组对应 1 张），支持 RoCE v2 / InfiniBand NDR"],
            ["业务/存储网络", "1 × 双口 25GE OCP 3.0 网卡"],
            ["管理网络", "1 × 千兆 BMC 管理口（RJ45）"],
            ["存储", "前置 8 × 2.5 英寸 NVMe U.2，单盘最大 15.36TB；2 × M.2 SATA 系统盘"],
            ["扩展插槽", "最多 10 个 PCIe 5.0 x16 插槽"],
            ["电源", "6 块 3200W 钛金级 CRPS 电源，支持 3+3 冗余"],
            ["整机功耗", "典型 8.6kW，最大 10.8kW"],
            ["散热", "标配风冷（N+1 冗余热插拔风扇）；可选 CPU 与 OAM 冷板式液冷套件"],
            ["工作温度", "5℃～35℃"],
            ["重量", "满配约 105kg"],
        ],
        [38, 136],
    ),
    Paragraph("注：以上为典型配置参数，实际规格以发货配置为准。", N),
    PageBreak(),
    Paragraph("集群方案", H2),
    Paragraph(
        "以 QY-G880 M2 为计算节点，参数面采用 51.2Tbps 以太网交换机构建两层无收敛 CLOS 网络，每台服务器的"
        " 8 个 400G 端口分别接入 8 个轨道（rail）。128 台服务器可组成 1024 卡集群，并可平滑扩展至万卡级规模。",
        P,
    ),
    Spacer(1, 4),
    Paragraph("同轨道节点间通信时延（端到端）≤ 2.5μs。", P),
    Spacer(1, 4),
    Paragraph("整机柜部署建议：标准 42U 机柜部署 4 台，单柜功耗约 43kW，建议采用冷板式液冷或配套行级空调。", P),
    Spacer(1, 4),
    Paragraph("擎云计算保留对产品规格进行修改的权利，恕不另行通知。", N),
]
build("qingyun-qy-g880m2-server-zh.pdf", s, "擎云计算 QY-G880 M2 技术规格 V1.3")

# ---------------------------------------------------------------- 2. switch
s = [
    Paragraph("天穹 TQ-S9860 系列 AI 数据中心交换机", H1),
    Paragraph("产品概述", H2),
    Paragraph(
        "TQ-S9860 系列是天穹网络面向 AI 智算中心参数面网络推出的新一代 51.2T 盒式交换机，基于单颗 51.2Tbps 交换芯片，"
        "支持 RoCEv2 无损以太网、自适应路由与逐包负载分担，适用于大模型训练集群的 Leaf / Spine 部署。两层 CLOS "
        "组网可支撑 8,192 卡 GPU 集群（每卡 1 × 400G 接入）。",
        P,
    ),
    Spacer(1, 4),
    Paragraph("表1 产品规格", H2),
    table(
        [
            ["项目", "TQ-S9860-64E", "TQ-S9860-128H"],
            ["交换容量", "102.4Tbps", "102.4Tbps"],
            ["包转发率", "21,360Mpps", "21,360Mpps"],
            [
                "业务端口",
                "64 × 800GE OSFP，可拆分为 128 × 400GE 或 256 × 200GE",
                "128 × 400GE QSFP112，可拆分为 256 × 200GE",
            ],
            ["管理端口", "1 × 1GE 电口，1 × Console，1 × USB 2.0", "1 × 1GE 电口，1 × Console，1 × USB 2.0"],
            ["交换芯片时延", "≤ 600ns（64 字节，直通模式）", "≤ 680ns（64 字节，直通模式）"],
            ["缓存", "共享 160MB", "共享 160MB"],
            ["典型功耗（不含光模块）", "905W", "870W"],
            ["最大功耗（满配光模块）", "2,180W", "2,060W"],
            ["电源", "2+2 冗余热插拔，单电源模块额定功率 3,000W", "2+2 冗余热插拔，单电源模块额定功率 3,000W"],
            ["光模块", "单端口支持功耗 ≤ 24W 的光模块", "单端口支持功耗 ≤ 20W 的光模块"],
            ["风扇", "6 个风扇模块，5+1 冗余", "6 个风扇模块，5+1 冗余"],
            ["散热方式", "风冷，前后风道", "风冷，前后风道"],
            ["尺寸（宽×深×高）", "442 × 660 × 88.1mm（2U）", "442 × 660 × 88.1mm（2U）"],
            ["工作温度", "0℃～40℃", "0℃～40℃"],
        ],
        [42, 66, 66],
    ),
    PageBreak(),
    Paragraph("关键特性", H2),
    Paragraph("• 无损以太网：支持 PFC、ECN 与 PFC 死锁检测，死锁检测周期 100ms 可配置。", P),
    Paragraph("• 负载均衡：支持自适应路由（AR）与逐包喷洒，参数面链路利用率可达 95% 以上。", P),
    Paragraph("• 超低时延：芯片级转发时延低至 600ns，较上一代产品降低 30%。", P),
    Paragraph("• 可视化运维：支持 Telemetry 秒级采集，队列深度与 ECN 标记实时上送。", P),
    Spacer(1, 6),
    Paragraph("说明：时延为交换机端口到端口转发时延，不含主机协议栈与网卡处理时间。", N),
    Paragraph("天穹网络保留对本资料的最终解释权，规格如有变更恕不另行通知。", N),
]
build("tianqiong-tq-s9860-switch-zh.pdf", s, "天穹网络 TQ-S9860 系列彩页 2024-06")

# ---------------------------------------------------------------- 3. NIC (zh/en)
s = [
    Paragraph("衡通 HT-N700 系列 RDMA 智能网卡 | HengTong HT-N700 Series RDMA SmartNIC", H1),
    Paragraph("产品概述 Overview", H2),
    Paragraph(
        "HT-N700 系列是衡通网络面向 AI 集群参数面（Scale-out）网络的 RDMA 网卡，支持 RoCE v2 与 GPUDirect RDMA，"
        "硬件卸载拥塞控制与多路径传输。HT-N700 is an RDMA NIC for the scale-out fabric of AI clusters, with "
        "hardware congestion control and multipath transport offload.",
        P,
    ),
    Spacer(1, 4),
    Paragraph("规格参数 Specifications", H2),
    table(
        [
            ["项目 Item", "HT-N700-1P400", "HT-N700-2P200"],
            ["网络端口 Ports", "1 × QSFP112, 400GbE", "2 × QSFP56, 200GbE"],
            ["支持速率 Supported speeds", "10/25/50/100/200/400GbE", "10/25/50/100/200GbE"],
            ["整卡最大吞吐 Max throughput", "400Gb/s", "400Gb/s"],
            ["主机接口 Host interface", "PCIe 5.0 x16（32GT/s）", "PCIe 4.0 x16（16GT/s）"],
            ["主机接口带宽 Host bandwidth", "64GB/s（单向 per direction）", "64GB/s（双向 bidirectional）"],
            [
                "RDMA 时延 RDMA latency",
                "0.85μs（RoCE v2，ib_write_lat，2B，背靠背 back-to-back）",
                "0.92μs（RoCE v2，ib_write_lat，2B，背靠背 back-to-back）",
            ],
            ["报文处理流水线 Packet pipeline", "96 cycles", "96 cycles"],
            ["时间同步 Time sync", "IEEE 1588v2 PTP，同步精度 < 20ns", "IEEE 1588v2 PTP，同步精度 < 20ns"],
            ["典型功耗 Typical power", "22.5W", "19.6W"],
            ["最大功耗 Max power", "29.8W（含光模块 with optics）", "26.4W（含光模块 with optics）"],
            ["光模块 Optics", "支持功耗 ≤ 12W 的光模块 (Class 7)", "支持功耗 ≤ 5W 的光模块"],
            [
                "散热 Cooling",
                "被动散热 Passive heatsink，所需气流 ≥ 350 LFM",
                "被动散热 Passive heatsink，所需气流 ≥ 300 LFM",
            ],
            ["外形 Form factor", "PCIe HHHL 半高半长", "OCP 3.0 SFF"],
            ["工作温度 Operating temp.", "0℃～55℃", "0℃～55℃"],
        ],
        [46, 64, 64],
    ),
    PageBreak(),
    Paragraph("典型应用 Typical deployment", H2),
    Paragraph(
        "AI 训练集群参数面：每颗 GPU 1:1 配置一张 HT-N700-1P400，经轨道化（rail-optimized）两层 CLOS 网络互联。"
        "Storage and front-end networks can use the HT-N700-2P200 on an OCP 3.0 slot.",
        P,
    ),
    Spacer(1, 4),
    Paragraph("订购信息 Ordering information", H2),
    table(
        [
            ["型号 Model", "描述 Description"],
            ["HT-N700-1P400-Q112", "单口 400GbE，PCIe 5.0 x16，HHHL，含高/低挡板"],
            ["HT-N700-2P200-OCP", "双口 200GbE，PCIe 4.0 x16，OCP 3.0 SFF，拉手条"],
        ],
        [60, 114],
    ),
    Spacer(1, 4),
    Paragraph(
        "时延测试条件：两台服务器背靠背直连，关闭中断合并，消息大小 2 字节。Latency measured back-to-back, 2-byte messages.",
        N,
    ),
]
build("hengtong-ht-n700-nic-zh-en.pdf", s, "HengTong Networks 衡通网络 | HT-N700 Datasheet Rev. B")
print("ok")
